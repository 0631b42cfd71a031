package io.triplerpc.micrometer.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.triplerpc.CallObserver;
import io.triplerpc.ObservedCall;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * A server's call metrics: started, duration and sizes by method, protocol and status, and the calls in
 * flight. A method the server does not serve counts as {@code other}, so no client can make up tag
 * values, unless the filter given keeps its name. Thread-safe; records without locks, and without
 * allocating once a method's meters exist.
 */
public final class ServerCallMetrics implements CallObserver {

  /** The protocols a server call may come in, by their index in a method's meters. */
  private static final String[] PROTOCOLS = {"grpc", "grpc-web", "connect", "other"};

  private final MeterRegistry registry;
  private final Tags tags;
  /** A method's meters by protocol index, each made when first needed. */
  private final ConcurrentHashMap<String, AtomicReferenceArray<CallMeters>> byMethod = new ConcurrentHashMap<>();
  private final LongAdder active;
  /** Which names of methods the server does not serve are tags; null for none, all {@code other}. */
  private final Predicate<String> keepUnknownMethod;

  /**
   * @param tags added to every meter
   * @param keepUnknownMethod which names of methods the server does not serve to record as they are, or
   *     null to record them all as {@code other}
   */
  public ServerCallMetrics(MeterRegistry registry, Tags tags, Predicate<String> keepUnknownMethod) {
    this.registry = registry;
    this.tags = tags;
    this.keepUnknownMethod = keepUnknownMethod;
    this.active = SharedGauges.IN_FLIGHT.of(registry, MeterNames.SERVER_CALLS_ACTIVE,
        "Calls the server received that have not ended", tags);
  }

  @Override
  public void started(ObservedCall call) {
    active.increment();
    meters(call).started();
  }

  @Override
  public void ended(ObservedCall call) {
    active.decrement();
    meters(call).ended(call);
  }

  private CallMeters meters(ObservedCall call) {
    String method = call.knownMethod() || (keepUnknownMethod != null && keepUnknownMethod.test(call.method()))
        ? call.method() : MeterNames.OTHER;
    AtomicReferenceArray<CallMeters> byProtocol = byMethod.get(method);
    if (byProtocol == null) {
      byProtocol = byMethod.computeIfAbsent(method, m -> new AtomicReferenceArray<>(PROTOCOLS.length));
    }
    int protocol = protocolIndex(call.protocol());
    CallMeters meters = byProtocol.get(protocol);
    if (meters == null) {
      meters = new CallMeters(registry,
          tags.and(MeterNames.METHOD, method).and(MeterNames.PROTOCOL, PROTOCOLS[protocol]),
          "call", MeterNames.SERVER_CALL_STARTED, "Calls the server received, ended or not",
          MeterNames.SERVER_CALL_DURATION, MeterNames.SERVER_CALL_SENT, MeterNames.SERVER_CALL_RCVD);
      if (!byProtocol.compareAndSet(protocol, null, meters)) {
        meters = byProtocol.get(protocol);
      }
    }
    return meters;
  }

  private static int protocolIndex(String protocol) {
    if (protocol == null) {
      return 3;
    }
    switch (protocol) {
      case "grpc":
        return 0;
      case "grpc-web":
        return 1;
      case "connect":
        return 2;
      default:
        return 3;
    }
  }
}
