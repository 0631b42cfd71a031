package io.triplerpc.registry.server;

import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.internal.Durations;
import io.triplerpc.registry.internal.server.RegistryAccess;
import io.triplerpc.registry.internal.server.RegistryServiceImpl;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.registry.internal.wire.WireFormat;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p><b>Access.</b> Anyone who can register can take a service's traffic, so a registry reachable
 * by others should know its callers: given tokens ({@link Builder#token}, {@link Builder#tokenFile}),
 * it serves only callers that send one ({@code authorization: Bearer <token>}, see
 * {@code RemoteRegistry.Builder.token}), each within its {@link Right rights}, and a lease belongs to
 * the token that created it: another token can neither renew, revoke nor unregister it, nor register
 * an instance at an address it holds. Given no token it serves everyone, as a registry for tests and
 * one machine, and says so in a warning at start. {@link Builder#tls} encrypts the port.
 *
 * <p>Thread-safe.
 */
public final class RegistryServer {

  private static final Logger log = LoggerFactory.getLogger(RegistryServer.class);

  /** What a token allows. */
  public enum Right {
    /**
     * Changing what consumers see: Register, Heartbeat, Unregister, Revoke (within the token's own
     * leases), PublishMetadata and Map. For providers.
     */
    REGISTER,
    /** Reading it: GetMetadata, Applications and Subscribe. For consumers. */
    SUBSCRIBE
  }

  /** The port of a registry built without {@link Builder#port}. */
  public static final int DEFAULT_PORT = 7070;
  /** The TTL of a lease whose client asks for none. */
  public static final Duration DEFAULT_LEASE_TTL = WireFormat.DEFAULT_LEASE_TTL;
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
    RegistryAccess access = config.grants.isEmpty() ? RegistryAccess.open() : RegistryAccess.of(config.grants);
    RegistryServiceImpl started =
        new RegistryServiceImpl(config.leaseTtl, config.maxLeaseTtl, config.startupGrace, access);
    try {
      TripleServer.Builder builder = TripleServer.builder()
          .host(config.host)
          .port(config.port)
          .ioThreads(config.ioThreads)
          .addService(RegistryService.class, started);
      if (!access.isOpen()) {
        builder.accessPolicy(access.policy());
      }
      if (config.tls != null) {
        builder.tls(config.tls);
      }
      server = builder.build().start();
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
    service = started;
    warnIfExposed(access);
    return this;
  }

  private void warnIfExposed(RegistryAccess access) {
    String where = config.host + ':' + server.port();
    if (access.isOpen()) {
      log.warn("Registry server on {} has no tokens: anyone who can reach it can register, revoke and map"
          + " instances, and so take any service's traffic. Give it tokens (--token-file, or"
          + " RegistryServer.Builder.token) unless only trusted processes can reach this port.", where);
    } else if (config.tls == null && !loopback(config.host)) {
      log.warn("Registry server on {} checks {} token(s) but has no TLS: tokens cross the network in"
          + " cleartext (--tls-cert/--tls-key, or RegistryServer.Builder.tls)", where, access.tokenCount());
    } else {
      log.info("Registry server on {}: {} token(s){}", where, access.tokenCount(), config.tls == null ? "" : ", TLS");
    }
  }

  private static boolean loopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
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
    private TlsConfig tls;
    /** The tokens given so far, in order; none means open. */
    private final List<RegistryAccess.Grant> grants = new ArrayList<>();

    private Builder() {}

    private Builder copy() {
      Builder copy = new Builder();
      copy.host = host;
      copy.port = port;
      copy.leaseTtl = leaseTtl;
      copy.maxLeaseTtl = maxLeaseTtl.compareTo(leaseTtl) < 0 ? leaseTtl : maxLeaseTtl;
      copy.startupGrace = startupGrace;
      copy.ioThreads = ioThreads;
      copy.tls = tls;
      copy.grants.addAll(grants);
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

    /**
     * Serves only callers that present {@code token} as a bearer token, within {@code rights} (and
     * the other tokens given, within theirs). Tokens are at least 16 characters of
     * {@code [A-Za-z0-9._~+/=-]}; {@code openssl rand -hex 32} makes a good one. None by default:
     * the registry is open to every caller that reaches it.
     *
     * @throws IllegalArgumentException if the token is too short or holds another character, or
     *     no right is given (the message never holds the token)
     */
    public Builder token(String token, Right right, Right... more) {
      Objects.requireNonNull(token, "token");
      Objects.requireNonNull(right, "right");
      grants.add(RegistryAccess.grant(token, EnumSet.of(right, more), "token #" + (grants.size() + 1)));
      return this;
    }

    /**
     * Adds the tokens of {@code file}, read now: one {@code <token> <right>[,<right>]} per line,
     * rights {@code register} and {@code subscribe}; {@code #} starts a comment, blank lines are
     * skipped. Keep the file readable by the registry's user alone.
     *
     * @throws IllegalArgumentException for a line that does not parse (the message names the file
     *     and the line number, never the token), or a file without tokens
     * @throws java.io.UncheckedIOException if the file cannot be read
     */
    public Builder tokenFile(Path file) {
      grants.addAll(RegistryAccess.readTokenFile(Objects.requireNonNull(file, "file")));
      return this;
    }

    /**
     * Serves TLS with the certificate of {@code tls}; with {@link TlsConfig.ClientAuth#REQUIRE} and
     * trusted certificates, only clients with a certificate they signed connect (mutual TLS, on top
     * of tokens). Cleartext by default.
     */
    public Builder tls(TlsConfig tls) {
      Objects.requireNonNull(tls, "tls");
      if (tls.sslContext() == null && tls.certificateChain() == null) {
        throw new IllegalArgumentException("A registry server's TlsConfig needs keyCertChain(...) or sslContext(...)");
      }
      this.tls = tls;
      return this;
    }

    /**
     * A registry server, not started.
     *
     * @throws IllegalArgumentException if one token was given twice
     */
    public RegistryServer build() {
      if (!grants.isEmpty()) {
        RegistryAccess.of(grants);
      }
      return new RegistryServer(this);
    }
  }
}
