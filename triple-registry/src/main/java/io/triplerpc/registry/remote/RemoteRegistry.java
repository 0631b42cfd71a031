package io.triplerpc.registry.remote;

import io.triplerpc.registry.internal.Durations;
import io.triplerpc.registry.internal.Threads;
import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.registry.internal.proto.ApplicationsRequest;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.proto.MapRequest;
import io.triplerpc.registry.internal.proto.MetadataRequest;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.RevokeRequest;
import io.triplerpc.registry.internal.proto.UnregisterRequest;
import io.triplerpc.registry.internal.remote.BearerToken;
import io.triplerpc.registry.internal.remote.RemoteSubscription;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.registry.internal.wire.WireFormat;
import io.triplerpc.registry.server.RegistryServer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Registry} kept by a {@link RegistryServer}, reached over one Triple connection.
 *
 * <pre>{@code
 * try (Registry registry = RemoteRegistry.connect("127.0.0.1", 7070)) {
 *   registry.publishMetadata(metadata);
 *   registry.map("helloworld.Greeter", "greeter-app");
 *   registry.register(ServiceInstance.of("greeter-app", "10.0.0.7", 50051, metadata.revision()));
 *   ...
 * }
 * }</pre>
 *
 * <p><b>Provider side.</b> Instances are registered under one lease per {@code RemoteRegistry},
 * renewed by a heartbeat (a third of the TTL by default). The registry remembers what it registered,
 * published and mapped; when the server no longer knows its lease (it restarted, or the lease
 * expired during an outage), or a write failed, it sends all of it again, metadata first. Writes
 * reach the server one at a time, in the order they were made. A failed write's future fails, and
 * the write is retried with the next heartbeat; a write the server rejects (INVALID_ARGUMENT) is
 * forgotten.
 *
 * <p><b>Consumer side.</b> {@link #subscribe} keeps a server stream open: the whole list
 * ({@code onResync}), then changes. When the stream fails the listener hears {@code onDisconnected}
 * and keeps its instances; the stream is reopened with backoff (100 ms doubling to 5 s by default),
 * and the server's first batch on the new stream is delivered as {@code onResync}. Malformed records
 * are skipped with a warning. The server sends a keepalive batch to quiet streams; a stream that
 * hears nothing for three keepalive intervals, or a heartbeat that times out, means the connection
 * is dead though it looks open (the server's host vanished): a new connection replaces it.
 *
 * <p><b>Security.</b> A registry server with tokens serves only callers that present one:
 * {@link Builder#token} or {@link Builder#tokenFile} (sent as {@code authorization: Bearer <token>}
 * on every call), with the register right for a provider, subscribe for a consumer.
 * {@link Builder#tls} connects with TLS. A call the server refuses (UNAUTHENTICATED,
 * PERMISSION_DENIED) fails its future with that status; writes are still retried with the
 * heartbeat (the server may be given the token later), and a warning is logged once per refusal,
 * not once per retry. A client target says the same in its query:
 * {@code registry://host:7070?tls=true&token-file=/etc/myapp/registry-token} ({@code tls-ca=/path/ca.pem}
 * trusts that CA instead of the JDK's); a raw {@code token=} is refused, as targets end up in logs.
 * For anything else (a client certificate, say), build the registry in code:
 * {@code Discovery.connecting(() -> RemoteRegistry.builder(host, port).tls(tls).tokenFile(file).build())}.
 *
 * <p>{@link #close} stops heartbeats and subscriptions and revokes the lease, which removes this
 * registry's instances at once; it does not wait for the server. Thread-safe.
 */
public final class RemoteRegistry implements Registry {

  private static final Logger log = LoggerFactory.getLogger(RemoteRegistry.class);

  private final String target;
  /** The current connection; replaced when it stalls (a dead peer behind an open-looking socket). */
  private volatile Connection connection;
  private final ScheduledExecutorService scheduler;
  private final Builder config;
  /** The lease this registry's instances live under; the server creates it again if it forgot it. */
  private final String leaseId = UUID.randomUUID().toString();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Set<RemoteSubscription> subscriptions = ConcurrentHashMap.newKeySet();

  private final Object lock = new Object();
  /** What this registry registered, by application and address. Guarded by {@link #lock}. */
  /** The largest batch of instances accepted from the server: room for a few million instances. */
  private static final int MAX_BATCH_BYTES = 256 * 1024 * 1024;

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
   * A client to the server and its proxies.
   *
   * @param calls unary calls, each with the call timeout
   * @param streams subscription streams, without a deadline
   */
  private record Connection(TripleClient client, RegistryService calls, RegistryService streams) {}

  private RemoteRegistry(Builder builder) {
    this.config = builder.copy();
    this.target = builder.host + ':' + builder.port;
    this.connection = newConnection();
    this.scheduler = Executors.newSingleThreadScheduledExecutor(Threads.daemon("triple-registry-client"));
  }

  private Connection newConnection() {
    TripleClient.Builder builder = TripleClient.builder()
        .address(config.host, config.port)
        .reconnectBackoff(config.initialBackoff, config.maxBackoff)
        .connectTimeout(config.callTimeout)
        .ioThreads(1)
        // A resync is one message: at about 65 bytes an instance, 4 MiB would stop near 60,000.
        .maxInboundMessageSize(MAX_BATCH_BYTES);
    if (config.token != null) {
      builder.intercept(config.token);
    }
    if (config.tls != null) {
      builder.tls(config.tls);
    }
    TripleClient client = builder.build();
    return new Connection(client,
        client.proxy(RegistryService.class, CallOptions.DEFAULT.withTimeout(config.callTimeout)),
        client.proxy(RegistryService.class, CallOptions.DEFAULT));
  }

  /** Unary calls on the current connection. */
  private RegistryService calls() {
    return connection.calls();
  }

  /**
   * Replaces the connection whose stream proxy is {@code stale}, unless that happened already: calls
   * on it fail and are retried on the new one.
   */
  private void replaceConnection(RegistryService stale) {
    Connection old;
    synchronized (lock) {
      old = connection;
      if (closed.get() || old.streams() != stale) {
        return;
      }
      connection = newConnection();
    }
    log.warn("Connection to registry {} stalled; opening a new one", target);
    old.client().close();
  }

  /** A registry kept by the registry server at {@code host:port}, with the default options. */
  public static RemoteRegistry connect(String host, int port) {
    return builder(host, port).build();
  }

  /** A builder for a registry kept by the registry server at {@code host:port}. */
  public static Builder builder(String host, int port) {
    return new Builder(host, port);
  }

  @Override
  public CompletableFuture<Void> register(ServiceInstance instance) {
    Objects.requireNonNull(instance, "instance");
    checkOpen();
    synchronized (lock) {
      instances.put(key(instance), instance);
      ensureHeartbeat(defaultHeartbeatNanos(config.leaseTtl.isZero() ? RegistryServer.DEFAULT_LEASE_TTL : config.leaseTtl));
    }
    return write(() -> calls().register(registerRequest(instance)))
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

  @Override
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    Objects.requireNonNull(instance, "instance");
    checkOpen();
    String key = key(instance);
    synchronized (lock) {
      instances.remove(key);
      removals.put(key, instance);
    }
    return sendUnregister(key, instance);
  }

  private CompletableFuture<Void> sendUnregister(String key, ServiceInstance instance) {
    return write(() -> calls().unregister(UnregisterRequest.newBuilder()
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

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo info) {
    Objects.requireNonNull(info, "metadata");
    checkOpen();
    synchronized (lock) {
      metadata.putIfAbsent(info.application() + '/' + info.revision(), info);
    }
    return write(() -> calls().publishMetadata(WireFormat.toProto(info)))
        .whenComplete((empty, error) -> {
          if (rejected(error)) {
            synchronized (lock) {
              metadata.remove(info.application() + '/' + info.revision(), info);
            }
          }
        })
        .thenApply(empty -> null);
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    Objects.requireNonNull(application, "application");
    Objects.requireNonNull(revision, "revision");
    checkOpen();
    return calls().getMetadata(MetadataRequest.newBuilder().setApplication(application).setRevision(revision).build())
        .thenApply(WireFormat::fromProto);
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    Objects.requireNonNull(serviceName, "serviceName");
    Objects.requireNonNull(application, "application");
    checkOpen();
    List<String> mapping = List.of(serviceName, application);
    synchronized (lock) {
      mappings.add(mapping);
    }
    return write(() -> calls().map(mapRequest(mapping)))
        .whenComplete((empty, error) -> {
          if (rejected(error)) {
            synchronized (lock) {
              mappings.remove(mapping);
            }
          }
        })
        .thenApply(empty -> null);
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    Objects.requireNonNull(serviceName, "serviceName");
    checkOpen();
    return calls().applications(ApplicationsRequest.newBuilder().setService(serviceName).build())
        .thenApply(response -> Set.copyOf(response.getApplicationsList()));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The listener is called on a callback thread of this registry's client, one call at a time;
   * closing the subscription waits for a call in progress.
   */
  @Override
  public Subscription subscribe(String application, InstanceListener listener) {
    Objects.requireNonNull(application, "application");
    Objects.requireNonNull(listener, "listener");
    if (application.isEmpty()) {
      throw new IllegalArgumentException("application is empty");
    }
    checkOpen();
    RemoteSubscription[] self = new RemoteSubscription[1];
    RemoteSubscription subscription = new RemoteSubscription(application, listener, () -> connection.streams(),
        this::replaceConnection, scheduler, config.keepalive.toNanos(), config.initialBackoff.toNanos(),
        config.maxBackoff.toNanos(), () -> subscriptions.remove(self[0]));
    self[0] = subscription;
    subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  /**
   * Ends subscriptions and heartbeats, and revokes the lease (the server removes this registry's
   * instances at once); the connection closes when the server answered or the call timed out.
   * Idempotent; never blocks.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (RemoteSubscription subscription : List.copyOf(subscriptions)) {
      subscription.close();
    }
    boolean registered;
    synchronized (lock) {
      if (heartbeat != null) {
        heartbeat.cancel(false);
      }
      registered = heartbeat != null;
      instances.clear();
    }
    CompletableFuture<?> revoked = registered
        ? write(() -> calls().revoke(RevokeRequest.newBuilder().setLeaseId(leaseId).build()))
        : CompletableFuture.completedFuture(null);
    revoked.whenComplete((v, error) -> {
      if (error != null) {
        log.debug("Could not revoke lease {} at {} (its instances expire with it): {}", leaseId, target, error.toString());
      }
      connection.client().close();
      scheduler.shutdownNow();
    });
  }

  /** The lease this registry's instances live under. */
  public String leaseId() {
    return leaseId;
  }

  @Override
  public String toString() {
    return "RemoteRegistry{" + target + ", lease " + leaseId + '}';
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("Registry closed");
    }
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
          config.token == null ? ", none is set" : "");
    }
  }

  /** Whether the server rejected the write itself (retrying would not help). */
  private static boolean rejected(Throwable error) {
    return error != null && Status.fromThrowable(error).code() == Status.Code.INVALID_ARGUMENT;
  }

  private RegisterRequest registerRequest(ServiceInstance instance) {
    return RegisterRequest.newBuilder()
        .setLeaseId(leaseId)
        .setTtlMillis(config.leaseTtl.toMillis())
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
    return config.heartbeatInterval != null ? config.heartbeatInterval.toNanos() : Math.max(1, ttl.toNanos() / 3);
  }

  /** The server granted {@code lease}: heartbeat often enough for its TTL. */
  private void leaseGranted(Lease lease) {
    synchronized (lock) {
      ensureHeartbeat(defaultHeartbeatNanos(Duration.ofMillis(Math.max(1, lease.getTtlMillis()))));
    }
  }

  /** (Re)schedules the heartbeat every {@code periodNanos}. Lock held. */
  private void ensureHeartbeat(long periodNanos) {
    if (closed.get() || (heartbeat != null && heartbeatNanos == periodNanos)) {
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
    if (closed.get()) {
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
    Connection used = connection;
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
            replaceConnection(used.streams());
          } else {
            log.debug("Heartbeat to registry {} failed: {}", target, error.toString());
          }
        });
  }

  /** Sends every piece of metadata, mapping and instance again, in that order. */
  private void resendAll() {
    if (closed.get()) {
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
        sent.add(write(() -> calls().publishMetadata(WireFormat.toProto(info))));
      }
      for (List<String> mapping : mappings) {
        sent.add(write(() -> calls().map(mapRequest(mapping))));
      }
      for (ServiceInstance instance : instances.values()) {
        sent.add(write(() -> calls().register(registerRequest(instance))));
      }
    }
    CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0])).whenComplete((v, error) -> {
      if (error == null) {
        log.info("Registered {} instance(s) again at registry {}", instanceCount, target);
      }
    });
  }

  /** Builds a {@link RemoteRegistry}. Not thread-safe. */
  public static final class Builder {

    private final String host;
    private final int port;
    private Duration leaseTtl = Duration.ZERO;
    private Duration heartbeatInterval;
    private Duration initialBackoff = Duration.ofMillis(100);
    private Duration maxBackoff = Duration.ofSeconds(5);
    private Duration callTimeout = Duration.ofSeconds(5);
    private Duration keepalive = Duration.ofSeconds(10);
    private BearerToken token;
    private TlsConfig tls;

    private Builder(String host, int port) {
      this.host = Objects.requireNonNull(host, "host");
      if (port <= 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
    }

    private Builder copy() {
      Builder copy = new Builder(host, port);
      copy.leaseTtl = leaseTtl;
      copy.heartbeatInterval = heartbeatInterval;
      copy.initialBackoff = initialBackoff;
      copy.maxBackoff = maxBackoff;
      copy.callTimeout = callTimeout;
      copy.keepalive = keepalive;
      copy.token = token;
      copy.tls = tls;
      return copy;
    }

    /**
     * The TTL to ask for the lease: instances disappear this long after the process dies. The
     * server's default (10 s unless configured) when not set; the server caps it.
     */
    public Builder leaseTtl(Duration ttl) {
      this.leaseTtl = Durations.positive(ttl, "ttl");
      return this;
    }

    /** How often to renew the lease; a third of the granted TTL by default. */
    public Builder heartbeatInterval(Duration interval) {
      this.heartbeatInterval = Durations.positive(interval, "interval");
      return this;
    }

    /**
     * The wait before reconnecting a subscription (and the connection): {@code initial}, doubling up
     * to {@code max}, with jitter; 100 ms to 5 s by default.
     */
    public Builder reconnectBackoff(Duration initial, Duration max) {
      this.initialBackoff = Durations.positive(initial, "initial");
      this.maxBackoff = Durations.positive(max, "max");
      if (max.compareTo(initial) < 0) {
        throw new IllegalArgumentException("max backoff " + max + " below initial " + initial);
      }
      return this;
    }

    /** The deadline of each unary call to the server; 5 s by default. */
    public Builder callTimeout(Duration timeout) {
      this.callTimeout = Durations.positive(timeout, "timeout");
      return this;
    }

    /**
     * How often the server sends a subscription a batch when nothing changed (at least 100 ms); 10 s
     * by default. A subscription that hears nothing for three intervals takes its connection for
     * dead, opens a new one and resubscribes. {@link Duration#ZERO} turns keepalives off.
     */
    public Builder subscriptionKeepalive(Duration interval) {
      Durations.notNegative(interval, "interval");
      this.keepalive = interval.isZero() || interval.toMillis() >= 100 ? interval : Duration.ofMillis(100);
      return this;
    }

    /**
     * The token presented to the server on every call ({@code authorization: Bearer <token>}); none
     * by default. A provider's token needs the register right, a consumer's the subscribe right.
     *
     * @throws IllegalArgumentException if it is empty or holds whitespace
     */
    public Builder token(String token) {
      this.token = BearerToken.of(token);
      return this;
    }

    /**
     * As {@link #token}, read now from {@code file}, which holds the token alone (a trailing
     * newline is fine): keeps the token out of code, command lines and target strings.
     *
     * @throws IllegalArgumentException if the file holds no token or more than one word
     * @throws java.io.UncheckedIOException if it cannot be read
     */
    public Builder tokenFile(Path file) {
      this.token = BearerToken.fromFile(Objects.requireNonNull(file, "file"));
      return this;
    }

    /**
     * Connects with TLS: the server's certificate is verified against
     * {@link TlsConfig#trustCertificates()} (the JDK's trust store when not set) and the host name;
     * a {@link TlsConfig#certificateChain()} is presented for a server that asks for one. Cleartext
     * by default.
     */
    public Builder tls(TlsConfig tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
      return this;
    }

    /** A registry; it connects on its first call. */
    public RemoteRegistry build() {
      if (token != null && tls == null && !loopback(host)) {
        log.warn("RemoteRegistry to {}:{} sends its token in cleartext; use tls(...) unless the network is trusted",
            host, port);
      }
      return new RemoteRegistry(this);
    }

    private static boolean loopback(String host) {
      try {
        return InetAddress.getByName(host).isLoopbackAddress();
      } catch (UnknownHostException e) {
        return false;
      }
    }
  }
}
