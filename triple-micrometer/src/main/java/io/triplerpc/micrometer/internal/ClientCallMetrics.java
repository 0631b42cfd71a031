package io.triplerpc.micrometer.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.triplerpc.CallObserver;
import io.triplerpc.ObservedCall;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A client's call metrics: attempts started, their duration and sizes, and calls' duration, by method,
 * target and status; and the calls in flight. Thread-safe; records without locks, and without allocating
 * once a method's meters exist.
 */
public final class ClientCallMetrics implements CallObserver {

  private final MeterRegistry registry;
  private final Tags tags;
  /** The meters of a target's methods; a client has one target, or a cluster's few. */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, Meters>> byTarget = new ConcurrentHashMap<>();
  private final LongAdder active;

  /** A method's meters on one target: its attempts', and its calls'. */
  private static final class Meters {
    final CallMeters attempts;
    final CallMeters calls;

    Meters(CallMeters attempts, CallMeters calls) {
      this.attempts = attempts;
      this.calls = calls;
    }
  }

  /** @param tags added to every meter */
  public ClientCallMetrics(MeterRegistry registry, Tags tags) {
    this.registry = registry;
    this.tags = tags;
    this.active = SharedGauges.IN_FLIGHT.of(registry, MeterNames.CLIENT_CALLS_ACTIVE,
        "Calls the client started that have not ended", tags);
  }

  @Override
  public void started(ObservedCall call) {
    if (call.kind() == ObservedCall.Kind.CLIENT_ATTEMPT) {
      meters(call).attempts.started();
    } else if (call.kind() == ObservedCall.Kind.CLIENT_CALL) {
      active.increment();
    }
  }

  @Override
  public void ended(ObservedCall call) {
    if (call.kind() == ObservedCall.Kind.CLIENT_ATTEMPT) {
      meters(call).attempts.ended(call);
    } else if (call.kind() == ObservedCall.Kind.CLIENT_CALL) {
      active.decrement();
      meters(call).calls.ended(call);
    }
  }

  private Meters meters(ObservedCall call) {
    String target = call.target() == null ? MeterNames.OTHER : call.target();
    ConcurrentHashMap<String, Meters> byMethod = byTarget.get(target);
    if (byMethod == null) {
      byMethod = byTarget.computeIfAbsent(target, t -> new ConcurrentHashMap<>());
    }
    Meters meters = byMethod.get(call.method());
    if (meters == null) {
      meters = byMethod.computeIfAbsent(call.method(), method -> {
        Tags methodTags = tags.and(MeterNames.METHOD, method).and(MeterNames.TARGET, target);
        return new Meters(
            new CallMeters(registry, methodTags, "attempt", MeterNames.CLIENT_ATTEMPT_STARTED,
                "Attempts the client started, ended or not", MeterNames.CLIENT_ATTEMPT_DURATION,
                MeterNames.CLIENT_ATTEMPT_SENT, MeterNames.CLIENT_ATTEMPT_RCVD),
            new CallMeters(registry, methodTags, "call", null, null, MeterNames.CLIENT_CALL_DURATION, null, null));
      });
    }
    return meters;
  }
}
