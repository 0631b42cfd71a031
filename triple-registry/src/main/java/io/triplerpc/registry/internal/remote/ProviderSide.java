package io.triplerpc.registry.internal.remote;

import io.triplerpc.Status;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.proto.MapRequest;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.RevokeRequest;
import io.triplerpc.registry.internal.proto.UnregisterRequest;
import io.triplerpc.registry.internal.wire.WireFormat;
import io.triplerpc.registry.remote.RemoteRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code RemoteRegistry}'s provider side: what it registered, published and mapped, under one
 * lease renewed by a heartbeat, and all of it sent again, metadata first, when the server may lack
 * it (it lost the lease, or a write failed).
 *
 * <p>Writes reach the server one at a time, in the order they were made. A failed write's future
 * fails, and the write is retried with the next heartbeat; a write the server rejects
 * (INVALID_ARGUMENT) is forgotten. Thread-safe; arguments are checked by {@code RemoteRegistry}.
 */
public final class ProviderSide {

  /** Logs as {@code RemoteRegistry}, the class whose log level users set. */
  private static final Logger log = LoggerFactory.getLogger(RemoteRegistry.class);

  private final String target;
  private final RegistryConnection connection;
  private final ScheduledExecutorService scheduler;
  private final BooleanSupplier closed;
  /** The TTL asked for the lease; zero for the server's default. */
  private final Duration leaseTtl;
  /** The heartbeat period asked for, or null for a third of the granted TTL. */
  private final Duration heartbeatInterval;
  /** Whether a token is sent, for the refusal's warning. */
  private final boolean hasToken;
  /** The lease this registry's instances live under; the server creates it again if it forgot it. */
  private final String leaseId = UUID.randomUUID().toString();

  private final Object lock = new Object();
  /** What this registry registered, by application and address. Guarded by {@link #lock}. */
  private final Map<String, ServiceInstance> instances = new LinkedHashMap<>();
  /** Unregistrations not confirmed yet, sent again with everything else until they are. Guarded by lock. */
  private final Map<String, ServiceInstance> removals = new LinkedHashMap<>();
  /** What this registry published, by application and revision. Guarded by {@link #lock}. */
  private final Map<String, MetadataInfo> metadata = new LinkedHashMap<>();
  /** What this registry mapped, as {@code [service, application]}. Guarded by {@link #lock}. */
  private final Set<List<String>> mappings = new LinkedHashSet<>();
  /** The last write; the next one starts when it ends. Guarded by {@link #lock}. */
  private CompletableFuture<?> writes = CompletableFuture.completedFuture(null);
  /** The heartbeat task, once something was registered. Guarded by {@link #lock}. */
  private ScheduledFuture<?> heartbeat;
  /** The period of {@link #heartbeat}. Guarded by {@link #lock}. */
  private long heartbeatNanos;
  /** Whether the server may lack something this registry holds: resend all at the next heartbeat. */
  private volatile boolean needsResend;
  /** The code of the last refusal logged (UNAUTHENTICATED, PERMISSION_DENIED), null after a success. */
  private volatile Status.Code refusal;

  /**
   * The provider side of the registry at {@code target}; the heartbeat runs on {@code scheduler},
   * and nothing is sent again once {@code closed} is true.
   *
   * @param leaseTtl the TTL to ask for, or zero for the server's default
   * @param heartbeatInterval the heartbeat period, or null for a third of the granted TTL
   * @param hasToken whether the connection presents a token
   */
  public ProviderSide(String target, RegistryConnection connection, ScheduledExecutorService scheduler,
      BooleanSupplier closed, Duration leaseTtl, Duration heartbeatInterval, boolean hasToken) {
    this.target = target;
    this.connection = connection;
    this.scheduler = scheduler;
    this.closed = closed;
    this.leaseTtl = leaseTtl;
    this.heartbeatInterval = heartbeatInterval;
    this.hasToken = hasToken;
  }

  /** The lease this registry's instances live under. */
  public String leaseId() {
    return leaseId;
  }

  /** Registers {@code instance} under the lease, and heartbeats from now on. */
  public CompletableFuture<Void> register(ServiceInstance instance) {
    synchronized (lock) {
      instances.put(key(instance), instance);
      ensureHeartbeat(defaultHeartbeatNanos(leaseTtl.isZero() ? WireFormat.DEFAULT_LEASE_TTL : leaseTtl));
    }
    return write(() -> connection.calls().register(registerRequest(instance)))
        .whenComplete((lease, error) -> {
          if (error == null) {
            leaseGranted(lease);
          } else if (rejected(error)) {
            synchronized (lock) {
              instances.remove(key(instance), instance);
            }
          }
        })
        .thenApply(lease -> null);
  }

  /** Unregisters {@code instance}, sent again until the server confirms it. */
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    String key = key(instance);
    synchronized (lock) {
      instances.remove(key);
      removals.put(key, instance);
    }
    return sendUnregister(key, instance);
  }

  private CompletableFuture<Void> sendUnregister(String key, ServiceInstance instance) {
    return write(() -> connection.calls().unregister(UnregisterRequest.newBuilder()
            .setLeaseId(leaseId)
            .setInstance(WireFormat.toProto(instance))
            .build()))
        .whenComplete((empty, error) -> {
          if (error == null) {
            synchronized (lock) {
              removals.remove(key, instance);
            }
          } else {
            // A stale instance would outlive its process while this lease lives on: try again.
            needsResend = true;
          }
        })
        .thenApply(empty -> null);
  }

  /** Publishes {@code info}, kept to be sent again. */
  public CompletableFuture<Void> publishMetadata(MetadataInfo info) {
    synchronized (lock) {
      metadata.putIfAbsent(info.application() + '/' + info.revision(), info);
    }
    return write(() -> connection.calls().publishMetadata(WireFormat.toProto(info)))
        .whenComplete((empty, error) -> {
          if (rejected(error)) {
            synchronized (lock) {
              metadata.remove(info.application() + '/' + info.revision(), info);
            }
          }
        })
        .thenApply(empty -> null);
  }

  /** Maps {@code serviceName} to {@code application}, kept to be sent again. */
  public CompletableFuture<Void> map(String serviceName, String application) {
    List<String> mapping = List.of(serviceName, application);
    synchronized (lock) {
      mappings.add(mapping);
    }
    return write(() -> connection.calls().map(mapRequest(mapping)))
        .whenComplete((empty, error) -> {
          if (rejected(error)) {
            synchronized (lock) {
              mappings.remove(mapping);
            }
          }
        })
        .thenApply(empty -> null);
  }

  /**
   * Stops the heartbeat and revokes the lease if anything was registered (the server removes this
   * registry's instances at once). The future completes, never exceptionally, when the server
   * answered or the call failed. Called once, after {@code closed} turned true.
   */
  public CompletableFuture<Void> close() {
    boolean registered;
    synchronized (lock) {
      if (heartbeat != null) {
        heartbeat.cancel(false);
      }
      registered = heartbeat != null;
      instances.clear();
    }
    CompletableFuture<?> revoked = registered
        ? write(() -> connection.calls().revoke(RevokeRequest.newBuilder().setLeaseId(leaseId).build()))
        : CompletableFuture.completedFuture(null);
    return revoked.handle((v, error) -> {
      if (error != null) {
        log.debug("Could not revoke lease {} at {} (its instances expire with it): {}", leaseId, target, error.toString());
      }
      return null;
    });
  }

  /** Starts {@code op} when the previous write ends, so writes reach the server in order. */
  private <T> CompletableFuture<T> write(Supplier<CompletableFuture<T>> op) {
    synchronized (lock) {
      CompletableFuture<T> result = writes.handle((v, error) -> null).thenCompose(ignored -> op.get());
      writes = result;
      result.whenComplete((v, error) -> {
        if (error != null && !rejected(error)) {
          needsResend = true;
        }
        noteRefusal(error);
      });
      return result;
    }
  }

  /**
   * Logs the first of a run of refusals (a missing, wrong or insufficient token), so a provider
   * that cannot register says why once, rather than at debug level with every retry.
   */
  private void noteRefusal(Throwable error) {
    Status.Code code = error == null ? null : Status.fromThrowable(error).code();
    if (code != Status.Code.UNAUTHENTICATED && code != Status.Code.PERMISSION_DENIED) {
      if (error == null) {
        refusal = null;
      }
      return;
    }
    if (refusal != code) {
      refusal = code;
      log.warn("Registry {} refused a write: {}: {}; check this client's token (RemoteRegistry.Builder.token){}."
          + " Retrying with the heartbeat.", target, code, Status.fromThrowable(error).description(),
          hasToken ? "" : ", none is set");
    }
  }

  /** Whether the server rejected the write itself (retrying would not help). */
  private static boolean rejected(Throwable error) {
    return error != null && Status.fromThrowable(error).code() == Status.Code.INVALID_ARGUMENT;
  }

  private RegisterRequest registerRequest(ServiceInstance instance) {
    return RegisterRequest.newBuilder()
        .setLeaseId(leaseId)
        .setTtlMillis(leaseTtl.toMillis())
        .setInstance(WireFormat.toProto(instance))
        .build();
  }

  private static MapRequest mapRequest(List<String> mapping) {
    return MapRequest.newBuilder().setService(mapping.get(0)).setApplication(mapping.get(1)).build();
  }

  private static String key(ServiceInstance instance) {
    return instance.application() + '@' + instance.address();
  }

  private long defaultHeartbeatNanos(Duration ttl) {
    return heartbeatInterval != null ? heartbeatInterval.toNanos() : Math.max(1, ttl.toNanos() / 3);
  }

  /** The server granted {@code lease}: heartbeat often enough for its TTL. */
  private void leaseGranted(Lease lease) {
    synchronized (lock) {
      ensureHeartbeat(defaultHeartbeatNanos(Duration.ofMillis(Math.max(1, lease.getTtlMillis()))));
    }
  }

  /** (Re)schedules the heartbeat every {@code periodNanos}. Lock held. */
  private void ensureHeartbeat(long periodNanos) {
    if (closed.getAsBoolean() || (heartbeat != null && heartbeatNanos == periodNanos)) {
      return;
    }
    if (heartbeat != null) {
      heartbeat.cancel(false);
    }
    heartbeatNanos = periodNanos;
    heartbeat = scheduler.scheduleWithFixedDelay(this::heartbeat, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
  }

  /** Renews the lease, or sends everything again if the server lost it or missed a write. */
  private void heartbeat() {
    if (closed.getAsBoolean()) {
      return;
    }
    synchronized (lock) {
      if (instances.isEmpty() && removals.isEmpty()) {
        return;
      }
    }
    if (needsResend) {
      resendAll();
      return;
    }
    RegistryConnection.Proxies used = connection.current();
    write(() -> used.calls().heartbeat(HeartbeatRequest.newBuilder().setLeaseId(leaseId).build()))
        .whenComplete((lease, error) -> {
          Status.Code code = error == null ? Status.Code.OK : Status.fromThrowable(error).code();
          if (error == null) {
            leaseGranted(lease);
          } else if (code == Status.Code.NOT_FOUND) {
            log.info("Registry {} lost lease {}; registering again", target, leaseId);
            resendAll();
          } else if (code == Status.Code.DEADLINE_EXCEEDED) {
            // No answer on a connection that looks open: the peer may be gone without a word.
            connection.replace(used.streams());
          } else {
            log.debug("Heartbeat to registry {} failed: {}", target, error.toString());
          }
        });
  }

  /** Sends every piece of metadata, mapping and instance again, in that order. */
  private void resendAll() {
    if (closed.getAsBoolean()) {
      return;
    }
    List<CompletableFuture<?>> sent = new ArrayList<>();
    int instanceCount;
    synchronized (lock) {
      instanceCount = instances.size();
      needsResend = false;
      for (Map.Entry<String, ServiceInstance> removal : removals.entrySet()) {
        sent.add(sendUnregister(removal.getKey(), removal.getValue()));
      }
      for (MetadataInfo info : metadata.values()) {
        sent.add(write(() -> connection.calls().publishMetadata(WireFormat.toProto(info))));
      }
      for (List<String> mapping : mappings) {
        sent.add(write(() -> connection.calls().map(mapRequest(mapping))));
      }
      for (ServiceInstance instance : instances.values()) {
        sent.add(write(() -> connection.calls().register(registerRequest(instance))));
      }
    }
    CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0])).whenComplete((v, error) -> {
      if (error == null) {
        log.info("Registered {} instance(s) again at registry {}", instanceCount, target);
      }
    });
  }
}
