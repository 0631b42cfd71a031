package io.triplerpc.registry.server;

import io.triplerpc.registry.internal.Durations;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.internal.server.RegistryServiceImpl;
import io.triplerpc.registry.internal.wire.RegistryService;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * A standalone registry: a {@link TripleServer} serving {@code triple.registry.v1.Registry} (see
 * {@code registry.proto}), holding instances, metadata and mappings in memory. Providers and
 * consumers reach it with {@link io.triplerpc.registry.remote.RemoteRegistry}; grpcurl reaches it
 * through server reflection.
 *
 * <p>Instances live under leases: a provider's instances are removed, and subscribers told, when
 * the provider stops renewing its lease for one TTL. State is not persisted: after a restart,
 * providers find their leases gone at their next heartbeat and register again, and consumers'
 * subscriptions reconnect and resync.
 *
 * <pre>{@code
 * RegistryServer registry = RegistryServer.builder().port(7070).build().start();
 * ...
 * registry.shutdown();
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class RegistryServer {

  /** The port of a registry built without {@link Builder#port}. */
  public static final int DEFAULT_PORT = 7070;
  /** The TTL of a lease whose client asks for none. */
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(10);
  /** The longest TTL granted, whatever a client asks for. */
  public static final Duration DEFAULT_MAX_LEASE_TTL = Duration.ofMinutes(5);

  private final Builder config;
  private RegistryServiceImpl service;
  private TripleServer server;

  private RegistryServer(Builder builder) {
    this.config = builder.copy();
  }

  /** A builder for a registry on all interfaces, port {@value #DEFAULT_PORT}. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Binds the port and starts serving; returns this registry.
   *
   * @throws java.io.UncheckedIOException if the port cannot be bound
   * @throws IllegalStateException if already started
   */
  public synchronized RegistryServer start() {
    if (server != null) {
      throw new IllegalStateException("Registry server already started");
    }
    RegistryServiceImpl started = new RegistryServiceImpl(config.leaseTtl, config.maxLeaseTtl, config.startupGrace);
    try {
      server = TripleServer.builder()
          .host(config.host)
          .port(config.port)
          .ioThreads(config.ioThreads)
          .addService(RegistryService.class, started)
          .build()
          .start();
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
    service = started;
    return this;
  }

  /** The port the registry listens on (the real one when 0 was asked for). */
  public int port() {
    return started().port();
  }

  /** The address the registry listens on. */
  public InetSocketAddress localAddress() {
    return started().localAddress();
  }

  /** The number of live leases: one per connected provider registry, roughly. */
  public int leaseCount() {
    started();
    return service.leaseCount();
  }

  /**
   * Stops: subscription streams end with UNAVAILABLE (consumers keep their instances and reconnect),
   * other calls in flight finish, then connections close. Never blocks.
   */
  public synchronized void shutdown() {
    if (server != null) {
      service.close();
      server.shutdown();
    }
  }

  /** Stops at once: every connection closes, calls in flight are cancelled. Never blocks. */
  public synchronized void shutdownNow() {
    if (server != null) {
      service.close();
      server.shutdownNow();
    }
  }

  /** Waits at most {@code timeout} for a complete shutdown; returns whether it happened. */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return started().awaitTermination(timeout);
  }

  /** Waits until the registry has shut down completely. */
  public void awaitTermination() throws InterruptedException {
    started().awaitTermination();
  }

  private synchronized TripleServer started() {
    if (server == null) {
      throw new IllegalStateException("Registry server not started");
    }
    return server;
  }

  /** Builds a {@link RegistryServer}. Not thread-safe. */
  public static final class Builder {

    private String host = "0.0.0.0";
    private int port = DEFAULT_PORT;
    private Duration leaseTtl = DEFAULT_LEASE_TTL;
    private Duration maxLeaseTtl = DEFAULT_MAX_LEASE_TTL;
    private Duration startupGrace = Duration.ZERO;
    private int ioThreads = 1;

    private Builder() {}

    private Builder copy() {
      Builder copy = new Builder();
      copy.host = host;
      copy.port = port;
      copy.leaseTtl = leaseTtl;
      copy.maxLeaseTtl = maxLeaseTtl.compareTo(leaseTtl) < 0 ? leaseTtl : maxLeaseTtl;
      copy.startupGrace = startupGrace;
      copy.ioThreads = ioThreads;
      return copy;
    }

    /** The interface to bind, such as {@code 127.0.0.1}; all interfaces by default. */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The port; {@value #DEFAULT_PORT} by default, 0 lets the system choose. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * The TTL of leases whose clients ask for none; 10 s by default. Clients heartbeat about three
     * times per TTL.
     */
    public Builder leaseTtl(Duration ttl) {
      this.leaseTtl = Durations.positive(ttl, "ttl");
      return this;
    }

    /** The longest TTL a client may ask for; 5 min by default (never below {@link #leaseTtl}). */
    public Builder maxLeaseTtl(Duration ttl) {
      this.maxLeaseTtl = Durations.positive(ttl, "ttl");
      return this;
    }

    /**
     * How long after start subscriptions wait before their first (RESYNC) batch; none by default.
     * A registry restarted in place should wait about one lease TTL: its providers re-register at
     * their next heartbeat, and consumers then resync to the full list instead of a partial one.
     */
    public Builder startupGrace(Duration grace) {
      this.startupGrace = Durations.notNegative(grace, "grace");
      return this;
    }

    /** Event loop threads; 1 by default (a registry carries little traffic). */
    public Builder ioThreads(int threads) {
      if (threads < 0) {
        throw new IllegalArgumentException("negative threads: " + threads);
      }
      this.ioThreads = threads;
      return this;
    }


    /** A registry server, not started. */
    public RegistryServer build() {
      return new RegistryServer(this);
    }
  }
}
