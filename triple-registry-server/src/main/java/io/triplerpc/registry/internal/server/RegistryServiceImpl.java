package io.triplerpc.registry.internal.server;

import io.triplerpc.registry.internal.Threads;
import io.triplerpc.CallStreamObserver;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.registry.internal.proto.ApplicationsRequest;
import io.triplerpc.registry.internal.proto.ApplicationsResponse;
import io.triplerpc.registry.internal.proto.Empty;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.proto.MapRequest;
import io.triplerpc.registry.internal.proto.Metadata;
import io.triplerpc.registry.internal.proto.MetadataRequest;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.RevokeRequest;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.registry.internal.proto.UnregisterRequest;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.registry.internal.wire.WireFormat;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry server's state and its {@code triple.registry.v1.Registry} service: instances,
 * metadata and mappings in an {@link InProcessRegistry}, plus the leases that keep instances alive.
 *
 * <p>Every instance lives under the lease that last registered it. A lease not renewed (by a
 * heartbeat or a registration) within its TTL expires: its instances are removed, and subscribers
 * are pushed REMOVED. A sweeper thread checks leases a few times per default TTL.
 *
 * <p>When {@link RegistryAccess} knows tokens, a lease belongs to the token that created it: only
 * that token may renew, revoke or register under it, remove its instances, or register an instance
 * at an address another token's lease holds (until that lease ends). Metadata and mappings are
 * shared by every token with the register right.
 *
 * <p>Subscription streams are fed from the store's one notifier thread, so each stream gets its
 * RESYNC batch and then its changes in the order they were made; a stream whose client asked for
 * keepalives also gets an empty CHANGES batch when it was quiet for the interval. Thread-safe.
 */
public final class RegistryServiceImpl implements RegistryService, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(RegistryServiceImpl.class);
  /** The shortest keepalive interval a subscriber may ask for. */
  private static final long MIN_KEEPALIVE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final InstanceBatch KEEPALIVE = InstanceBatch.newBuilder().setType(InstanceBatch.Type.CHANGES).build();

  private final InProcessRegistry store = new InProcessRegistry();
  /** Who may call; also tells whose call this is, for lease ownership. */
  private final RegistryAccess access;
  private final long defaultTtlNanos;
  private final long maxTtlNanos;
  /** Before this {@link #clock} time, new subscriptions wait for providers to re-register. */
  private final long resyncNotBeforeNanos;
  /** Runs the lease sweeper and the subscriptions held back by the startup grace. */
  private final ScheduledExecutorService scheduler;
  /** Whether {@link #scheduler} is this service's own, shut down with it. */
  private final boolean ownsScheduler;
  private final ScheduledFuture<?> sweeper;
  /** The time leases and keepalives are counted by, as {@link #scheduler} counts. */
  private final LongSupplier clock;

  private final Object lock = new Object();
  /** Live (or expired but not yet swept) leases by id. Guarded by {@link #lock}. */
  private final Map<String, LeaseState> leases = new HashMap<>();
  /** The lease each registered instance lives under. Guarded by {@link #lock}. */
  private final Map<InstanceKey, String> owners = new HashMap<>();
  /** Guarded by {@link #lock}. */
  private boolean closed;
  /** Open subscription streams, ended by {@link #close}. */
  private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();

  /** An instance's identity: application, host and port. */
  private record InstanceKey(String application, String address) {
    static InstanceKey of(ServiceInstance instance) {
      return new InstanceKey(instance.application(), instance.address());
    }
  }

  /** One lease. Guarded by the service's lock. */
  private static final class LeaseState {
    final String id;
    /** The token that created this lease; null when the registry is open. */
    final RegistryAccess.Grant owner;
    long ttlNanos;
    long expiresAtNanos;
    /** The instances living under this lease; each is also in {@code owners} under this id. */
    final Map<InstanceKey, ServiceInstance> instances = new HashMap<>();

    LeaseState(String id, RegistryAccess.Grant owner) {
      this.id = id;
      this.owner = owner;
    }

    void renew(long now) {
      expiresAtNanos = now + ttlNanos;
    }

    boolean expired(long now) {
      return now - expiresAtNanos > 0;
    }

    Lease toProto() {
      return Lease.newBuilder().setLeaseId(id).setTtlMillis(TimeUnit.NANOSECONDS.toMillis(ttlNanos)).build();
    }
  }

  /**
   * A service granting {@code defaultTtl} to leases that ask for none, at most {@code maxTtl} to any,
   * and holding back subscriptions opened within {@code startupGrace} of now.
   */
  public RegistryServiceImpl(Duration defaultTtl, Duration maxTtl, Duration startupGrace) {
    this(defaultTtl, maxTtl, startupGrace, RegistryAccess.open());
  }

  /** As above, with leases bound to the tokens of {@code access}, which must guard the service. */
  public RegistryServiceImpl(Duration defaultTtl, Duration maxTtl, Duration startupGrace, RegistryAccess access) {
    this(defaultTtl, maxTtl, startupGrace, access,
        Executors.newSingleThreadScheduledExecutor(Threads.daemon("triple-registry-leases")), System::nanoTime, true);
  }

  /**
   * As above, with the lease sweeper, held-back subscriptions and keepalives on {@code scheduler} and
   * time read from {@code clock}, which counts as the scheduler does (a test's manual clock, say). The
   * scheduler stays the caller's: {@link #close()} only cancels this service's tasks on it.
   */
  public RegistryServiceImpl(Duration defaultTtl, Duration maxTtl, Duration startupGrace, RegistryAccess access,
      ScheduledExecutorService scheduler, LongSupplier clock) {
    this(defaultTtl, maxTtl, startupGrace, access, scheduler, clock, false);
  }

  private RegistryServiceImpl(Duration defaultTtl, Duration maxTtl, Duration startupGrace, RegistryAccess access,
      ScheduledExecutorService scheduler, LongSupplier clock, boolean ownsScheduler) {
    this.access = access;
    this.defaultTtlNanos = defaultTtl.toNanos();
    this.maxTtlNanos = maxTtl.toNanos();
    this.clock = clock;
    this.resyncNotBeforeNanos = clock.getAsLong() + startupGrace.toNanos();
    this.scheduler = scheduler;
    this.ownsScheduler = ownsScheduler;
    long sweepNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(TimeUnit.SECONDS.toNanos(1), defaultTtlNanos / 5));
    this.sweeper = scheduler.scheduleWithFixedDelay(this::expireLeases, sweepNanos, sweepNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public CompletableFuture<Lease> register(RegisterRequest request) {
    ServiceInstance instance;
    try {
      instance = WireFormat.fromProto(request.getInstance());
    } catch (IllegalArgumentException | NullPointerException e) {
      return invalid("Invalid instance: " + e.getMessage());
    }
    if (request.getTtlMillis() < 0) {
      return invalid("Negative ttl_millis: " + request.getTtlMillis());
    }
    long ttlNanos = request.getTtlMillis() == 0
        ? defaultTtlNanos
        : Math.min(maxTtlNanos, TimeUnit.MILLISECONDS.toNanos(request.getTtlMillis()));
    String leaseId = request.getLeaseId().isEmpty() ? UUID.randomUUID().toString() : request.getLeaseId();
    InstanceKey key = InstanceKey.of(instance);
    RegistryAccess.Grant caller = access.caller();
    synchronized (lock) {
      if (closed) {
        return shuttingDown();
      }
      long now = clock.getAsLong();
      LeaseState lease = liveLease(leaseId, now);
      if (lease != null && lease.owner != caller) {
        return leaseOfAnotherToken(leaseId);
      }
      String previousOwner = owners.get(key);
      LeaseState previous = previousOwner == null || previousOwner.equals(leaseId) ? null : leases.get(previousOwner);
      if (previous != null && previous.owner != caller && !previous.expired(now)) {
        // Taking the address over would let one token divert another's consumers.
        return notYours(instance.application() + " at " + instance.address()
            + " is registered under another token's lease; it can be registered again once that lease ends");
      }
      if (lease == null) {
        lease = new LeaseState(leaseId, caller);
        leases.put(leaseId, lease);
        log.debug("Lease {} granted to {}{}", leaseId, instance, caller == null ? "" : " (" + caller + ")");
      }
      lease.ttlNanos = ttlNanos;
      lease.renew(now);
      owners.put(key, leaseId);
      if (previous != null) {
        previous.instances.remove(key);
      }
      lease.instances.put(key, instance);
      store.register(instance);
      return CompletableFuture.completedFuture(lease.toProto());
    }
  }

  @Override
  public CompletableFuture<Lease> heartbeat(HeartbeatRequest request) {
    RegistryAccess.Grant caller = access.caller();
    synchronized (lock) {
      long now = clock.getAsLong();
      LeaseState lease = liveLease(request.getLeaseId(), now);
      if (lease == null) {
        return CompletableFuture.failedFuture(
            Status.NOT_FOUND.withDescription("Unknown lease " + request.getLeaseId()).asException());
      }
      if (lease.owner != caller) {
        return leaseOfAnotherToken(request.getLeaseId());
      }
      lease.renew(now);
      return CompletableFuture.completedFuture(lease.toProto());
    }
  }

  @Override
  public CompletableFuture<Empty> unregister(UnregisterRequest request) {
    Instance message = request.getInstance();
    ServiceInstance instance;
    try {
      // Only the address counts; a placeholder stands in for a revision left out.
      instance = ServiceInstance.of(message.getApplication(), message.getHost(), message.getPort(),
          message.getRevision().isEmpty() ? "-" : message.getRevision());
    } catch (IllegalArgumentException | NullPointerException e) {
      return invalid("Invalid instance: " + e.getMessage());
    }
    InstanceKey key = InstanceKey.of(instance);
    RegistryAccess.Grant token = access.caller();
    synchronized (lock) {
      long now = clock.getAsLong();
      LeaseState caller = request.getLeaseId().isEmpty() ? null : liveLease(request.getLeaseId(), now);
      if (caller != null && caller.owner != token) {
        return leaseOfAnotherToken(request.getLeaseId());
      }
      if (caller != null) {
        caller.renew(now);
      }
      String owner = owners.get(key);
      LeaseState ownerLease = owner == null ? null : leases.get(owner);
      if (request.getLeaseId().isEmpty() && ownerLease != null && ownerLease.owner != token) {
        return notYours(instance.application() + " at " + instance.address() + " is registered under another token's lease");
      }
      // A late unregister from an old process must not remove a newer owner's instance at the same
      // address; a call without a lease (an operator's grpcurl) may remove any its token may.
      if (owner != null && (request.getLeaseId().isEmpty() || owner.equals(request.getLeaseId()))) {
        owners.remove(key);
        LeaseState lease = leases.get(owner);
        if (lease != null) {
          lease.instances.remove(key);
        }
        store.unregister(instance);
      }
    }
    return CompletableFuture.completedFuture(Empty.getDefaultInstance());
  }

  @Override
  public CompletableFuture<Empty> revoke(RevokeRequest request) {
    RegistryAccess.Grant caller = access.caller();
    synchronized (lock) {
      LeaseState lease = leases.get(request.getLeaseId());
      if (lease != null && lease.owner != caller) {
        return leaseOfAnotherToken(request.getLeaseId());
      }
      if (lease != null) {
        int removed = end(lease);
        log.debug("Lease {} revoked; {} instance(s) removed", lease.id, removed);
      }
    }
    return CompletableFuture.completedFuture(Empty.getDefaultInstance());
  }

  @Override
  public CompletableFuture<Empty> publishMetadata(Metadata request) {
    MetadataInfo info;
    try {
      info = WireFormat.fromProto(request);
    } catch (IllegalArgumentException | NullPointerException e) {
      return invalid("Invalid metadata: " + e.getMessage());
    }
    return store.publishMetadata(info).thenApply(v -> Empty.getDefaultInstance());
  }

  @Override
  public CompletableFuture<Metadata> getMetadata(MetadataRequest request) {
    return store.metadata(request.getApplication(), request.getRevision())
        .handle((info, error) -> {
          if (error != null) {
            throw Status.NOT_FOUND.withDescription("No metadata for " + request.getApplication() + " at revision "
                + request.getRevision()).asException();
          }
          return WireFormat.toProto(info);
        });
  }

  @Override
  public CompletableFuture<Empty> map(MapRequest request) {
    if (request.getService().isEmpty() || request.getApplication().isEmpty()) {
      return invalid("Map needs a service and an application");
    }
    return store.map(request.getService(), request.getApplication()).thenApply(v -> Empty.getDefaultInstance());
  }

  @Override
  public CompletableFuture<ApplicationsResponse> applications(ApplicationsRequest request) {
    return store.applications(request.getService())
        .thenApply(apps -> ApplicationsResponse.newBuilder().addAllApplications(apps.stream().sorted().toList()).build());
  }

  @Override
  public void subscribe(SubscribeRequest request, StreamObserver<InstanceBatch> batches) {
    if (request.getApplication().isEmpty()) {
      batches.onError(Status.INVALID_ARGUMENT.withDescription("Subscribe needs an application").asException());
      return;
    }
    if (request.getKeepaliveMillis() < 0) {
      batches.onError(Status.INVALID_ARGUMENT.withDescription("Negative keepalive_millis").asException());
      return;
    }
    Subscriber subscriber = new Subscriber(request.getApplication(), batches);
    subscribers.add(subscriber);
    if (batches instanceof ServerCallStreamObserver) {
      ((ServerCallStreamObserver<InstanceBatch>) batches).setOnCancelHandler(subscriber::cancelled);
    }
    try {
      if (request.getKeepaliveMillis() > 0) {
        subscriber.keepAlive(Math.max(MIN_KEEPALIVE_NANOS, TimeUnit.MILLISECONDS.toNanos(request.getKeepaliveMillis())));
      }
      long wait = resyncNotBeforeNanos - clock.getAsLong();
      if (wait > 0) {
        scheduler.schedule(subscriber::start, wait, TimeUnit.NANOSECONDS);
      } else {
        subscriber.start();
      }
    } catch (RejectedExecutionException e) {
      subscriber.end(Status.UNAVAILABLE.withDescription("Registry server is shutting down"));
    }
  }

  /** Ends every subscription stream with UNAVAILABLE and forgets everything. Idempotent. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
    }
    for (Subscriber subscriber : List.copyOf(subscribers)) {
      subscriber.end(Status.UNAVAILABLE.withDescription("Registry server is shutting down"));
    }
    store.close();
    if (ownsScheduler) {
      scheduler.shutdownNow();
    } else {
      sweeper.cancel(false);
    }
  }

  /** Removes the instances of every lease whose TTL passed without a renewal. */
  private void expireLeases() {
    try {
      synchronized (lock) {
        long now = clock.getAsLong();
        for (LeaseState lease : List.copyOf(leases.values())) {
          if (lease.expired(now)) {
            int removed = end(lease);
            log.info("Lease {} expired; {} instance(s) removed", lease.id, removed);
          }
        }
      }
    } catch (RuntimeException e) {
      // A sweeper that threw would never run again.
      log.warn("Lease sweep failed", e);
    }
  }

  /** The lease {@code id} if it has not expired; an expired one is ended first. Lock held. */
  private LeaseState liveLease(String id, long now) {
    LeaseState lease = leases.get(id);
    if (lease != null && lease.expired(now)) {
      int removed = end(lease);
      log.info("Lease {} expired; {} instance(s) removed", lease.id, removed);
      return null;
    }
    return lease;
  }

  /** Forgets {@code lease} and removes its instances; returns how many. Lock held. */
  private int end(LeaseState lease) {
    leases.remove(lease.id);
    int removed = 0;
    for (Iterator<Map.Entry<InstanceKey, ServiceInstance>> it = lease.instances.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<InstanceKey, ServiceInstance> entry = it.next();
      it.remove();
      if (owners.remove(entry.getKey(), lease.id)) {
        store.unregister(entry.getValue());
        removed++;
      }
    }
    return removed;
  }

  private static <T> CompletableFuture<T> invalid(String description) {
    return CompletableFuture.failedFuture(Status.INVALID_ARGUMENT.withDescription(description).asException());
  }

  private static <T> CompletableFuture<T> notYours(String description) {
    return CompletableFuture.failedFuture(Status.PERMISSION_DENIED.withDescription(description).asException());
  }

  private static <T> CompletableFuture<T> leaseOfAnotherToken(String leaseId) {
    return notYours("Lease " + leaseId + " belongs to another token");
  }

  private static <T> CompletableFuture<T> shuttingDown() {
    return CompletableFuture.failedFuture(
        Status.UNAVAILABLE.withDescription("Registry server is shutting down").asException());
  }

  /**
   * One subscription stream: the store's listener for one application, writing batches to the
   * stream. Its monitor guards the fields and serializes writes to the stream.
   */
  /** Batches a subscriber may fall behind by before its stream is ended (it then resyncs). */
  static final int MAX_UNREADY_BATCHES = 10_000;

  private final class Subscriber implements InstanceListener {

    private final String application;
    private final StreamObserver<InstanceBatch> batches;
    /** The store subscription once started; null before. */
    private Subscription subscription;
    /** Once true, nothing more is written and the store subscription is closed. */
    private boolean ended;
    /** When the last batch was written ({@link #clock}). */
    private long lastSentNanos = clock.getAsLong();
    /** Batches written while the stream was not ready, since it last was. */
    private int unreadyBatches;
    /** The keepalive task, or null when the client asked for none. */
    private ScheduledFuture<?> keepalive;

    Subscriber(String application, StreamObserver<InstanceBatch> batches) {
      this.application = application;
      this.batches = batches;
    }

    /** Subscribes to the store: the RESYNC batch follows on the notifier thread. */
    synchronized void start() {
      if (ended) {
        return;
      }
      try {
        subscription = store.subscribe(application, this);
      } catch (IllegalStateException e) {
        end(Status.UNAVAILABLE.withDescription("Registry server is shutting down"));
      }
    }

    /** Writes an empty CHANGES batch whenever {@code intervalNanos} passed without a batch. */
    synchronized void keepAlive(long intervalNanos) {
      if (ended) {
        return;
      }
      keepalive = scheduler.scheduleWithFixedDelay(() -> {
        synchronized (this) {
          if (clock.getAsLong() - lastSentNanos >= intervalNanos) {
            send(KEEPALIVE);
          }
        }
      }, intervalNanos / 2, intervalNanos / 2, TimeUnit.NANOSECONDS);
    }

    /** The client went away. */
    void cancelled() {
      synchronized (this) {
        stop();
      }
      subscribers.remove(this);
    }

    /** Marks the subscriber ended and stops feeding it. Monitor held. */
    private void stop() {
      ended = true;
      if (subscription != null) {
        subscription.close();
      }
      if (keepalive != null) {
        keepalive.cancel(false);
      }
    }

    /** Ends the stream with {@code status}. */
    void end(Status status) {
      synchronized (this) {
        if (ended) {
          return;
        }
        stop();
        try {
          batches.onError(status.asException());
        } catch (RuntimeException e) {
          // Cancelled meanwhile: nothing to end.
        }
      }
      subscribers.remove(this);
    }

    @Override
    public void onResync(Collection<ServiceInstance> instances) {
      InstanceBatch.Builder batch = InstanceBatch.newBuilder().setType(InstanceBatch.Type.RESYNC);
      for (ServiceInstance instance : instances) {
        batch.addInstances(WireFormat.toProto(instance));
      }
      send(batch.build());
    }

    @Override
    public void onChanges(List<InstanceChange> changes) {
      InstanceBatch.Builder batch = InstanceBatch.newBuilder().setType(InstanceBatch.Type.CHANGES);
      for (InstanceChange change : changes) {
        batch.addChanges(io.triplerpc.registry.internal.proto.InstanceChange.newBuilder()
            .setKind(kind(change.kind()))
            .setInstance(WireFormat.toProto(change.instance())));
      }
      send(batch.build());
    }

    private synchronized void send(InstanceBatch batch) {
      if (ended) {
        return;
      }
      if (batches instanceof CallStreamObserver && !((CallStreamObserver<InstanceBatch>) batches).isReady()) {
        // The subscriber does not keep up (HTTP/2 flow control holds the batches here): past a
        // bound, end its stream rather than buffer without limit; it resubscribes and resyncs.
        if (++unreadyBatches > MAX_UNREADY_BATCHES) {
          end(Status.RESOURCE_EXHAUSTED.withDescription(
              "Subscriber too slow: " + MAX_UNREADY_BATCHES + " batches waiting; resubscribe to resync"));
          return;
        }
      } else {
        unreadyBatches = 0;
      }
      try {
        // Stamped before the write, which may wake someone who reads the stamp (under this monitor).
        lastSentNanos = clock.getAsLong();
        batches.onNext(batch);
      } catch (RuntimeException e) {
        // The stream is gone (cancelled, or its connection closed): stop feeding it.
        stop();
        subscribers.remove(this);
      }
    }
  }

  private static io.triplerpc.registry.internal.proto.InstanceChange.Kind kind(InstanceChange.Kind kind) {
    switch (kind) {
      case ADDED:
        return io.triplerpc.registry.internal.proto.InstanceChange.Kind.ADDED;
      case UPDATED:
        return io.triplerpc.registry.internal.proto.InstanceChange.Kind.UPDATED;
      case REMOVED:
        return io.triplerpc.registry.internal.proto.InstanceChange.Kind.REMOVED;
      default:
        throw new AssertionError(kind);
    }
  }

  /** For tests and logs: the number of live leases. */
  public int leaseCount() {
    synchronized (lock) {
      return leases.size();
    }
  }
}
