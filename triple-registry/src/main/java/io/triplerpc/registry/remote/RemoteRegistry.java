package io.triplerpc.registry.remote;

import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.registry.internal.Durations;
import io.triplerpc.registry.internal.Threads;
import io.triplerpc.registry.internal.remote.BearerToken;
import io.triplerpc.registry.internal.remote.ConsumerSide;
import io.triplerpc.registry.internal.remote.ProviderSide;
import io.triplerpc.registry.internal.remote.RegistryConnection;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Registry} kept by a registry server ({@code io.triplerpc.registry.server.RegistryServer}, in
 * {@code triple-registry-server}), reached over one Triple connection.
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
  /** The largest batch of instances accepted from the server: room for a few million instances. */
  private static final int MAX_BATCH_BYTES = 256 * 1024 * 1024;

  private final String target;
  private final Builder config;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final RegistryConnection connection;
  private final ScheduledExecutorService scheduler;
  private final ProviderSide provider;
  private final ConsumerSide consumer;

  private RemoteRegistry(Builder builder) {
    this.config = builder.copy();
    this.target = builder.host + ':' + builder.port;
    this.connection = new RegistryConnection(target, this::newClient, config.callTimeout, closed::get);
    this.scheduler = Executors.newSingleThreadScheduledExecutor(Threads.daemon("triple-registry-client"));
    this.provider = new ProviderSide(target, connection, scheduler, closed::get, config.leaseTtl,
        config.heartbeatInterval, config.token != null);
    this.consumer = new ConsumerSide(connection, scheduler, config.keepalive.toNanos(),
        config.initialBackoff.toNanos(), config.maxBackoff.toNanos());
  }

  private TripleClient newClient() {
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
    return builder.build();
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
    return provider.register(instance);
  }

  @Override
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    Objects.requireNonNull(instance, "instance");
    checkOpen();
    return provider.unregister(instance);
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo info) {
    Objects.requireNonNull(info, "metadata");
    checkOpen();
    return provider.publishMetadata(info);
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    Objects.requireNonNull(application, "application");
    Objects.requireNonNull(revision, "revision");
    checkOpen();
    return consumer.metadata(application, revision);
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    Objects.requireNonNull(serviceName, "serviceName");
    Objects.requireNonNull(application, "application");
    checkOpen();
    return provider.map(serviceName, application);
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    Objects.requireNonNull(serviceName, "serviceName");
    checkOpen();
    return consumer.applications(serviceName);
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
    return consumer.subscribe(application, listener);
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
    consumer.close();
    provider.close().whenComplete((v, error) -> {
      connection.close();
      scheduler.shutdownNow();
    });
  }

  /** The lease this registry's instances live under. */
  public String leaseId() {
    return provider.leaseId();
  }

  @Override
  public String toString() {
    return "RemoteRegistry{" + target + ", lease " + provider.leaseId() + '}';
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("Registry closed");
    }
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
