package io.triplerpc;

import io.triplerpc.internal.client.ClientCallFactories;
import io.triplerpc.internal.client.TripleInvoker;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportFactory;
import io.triplerpc.internal.stream.ConnectionTimers;
import io.triplerpc.internal.stream.TransportOptions;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.spi.Cluster;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.Connection;
import io.triplerpc.spi.TargetResolver;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Calls Triple and gRPC services: {@link #proxy} returns an implementation of a
 * {@link TripleService} interface whose methods are remote calls. The servers are one address, or a
 * target such as {@code registry://127.0.0.1:7070} or a {@link Builder#cluster cluster} that finds
 * them and spreads calls over them ({@code triple-registry}).
 *
 * <p>Connections open lazily, on the first call, and are shared by every proxy of this client (one
 * per address unless configured otherwise). Thread-safe; close it when done.
 *
 * <pre>{@code
 * try (TripleClient client = TripleClient.builder().address("127.0.0.1", 50051).build()) {
 *   Greeter greeter = client.proxy(Greeter.class);
 *   HelloReply reply = greeter.sayHello(HelloRequest.newBuilder().setName("Ada").build());
 * }
 * }</pre>
 */
public final class TripleClient implements ClientCallFactory, AutoCloseable {

  private final ClientTransportFactory transportFactory;
  /** The one address's transport, or null when a cluster picks the servers. */
  private final ClientTransport transport;
  private final Cluster cluster;
  private final CallOptions defaultOptions;
  private final List<ClientInterceptor> interceptors;
  /** Credentials of calls whose options bring none, or null. */
  private final CallCredentials credentials;
  private final ClientCallFactory base;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The classes besides those of a service's signatures its responses may hold; see the builder. */
  private final DeserializationAllowList deserializationAllowList;

  private TripleClient(Builder builder) {
    this.transportFactory = loadTransportFactory();
    this.deserializationAllowList = builder.deserializationAllowList;
    if (builder.clusterFactory != null && builder.ioThreads == 0) {
      // Many servers, one connection each: event loops sized by cores, not by connections per address.
      builder.ioThreads = Runtime.getRuntime().availableProcessors();
    }
    TransportOptions transportOptions = builder.transportOptions();
    Executor callbackExecutor =
        builder.callbackExecutor != null ? builder.callbackExecutor : ClientCallFactories.newCallbackExecutor();
    int maxInbound = transportOptions.maxInboundMessageSize();
    this.defaultOptions = builder.defaultOptions;
    this.interceptors = List.copyOf(builder.interceptors);
    this.credentials = builder.credentials;
    if (builder.clusterFactory == null) {
      this.transport = transportFactory.newTransport(builder.address, transportOptions);
      this.cluster = null;
      this.base = ClientCallFactories.base(transport, callbackExecutor, maxInbound);
    } else {
      this.transport = null;
      this.cluster = builder.clusterFactory.newCluster(address -> new TransportConnection(
          address, transportFactory.newTransport(address, transportOptions), callbackExecutor, maxInbound));
      this.base = cluster;
    }
  }

  /** A {@link Connection} over one address's transport, for clusters. */
  private static final class TransportConnection implements Connection {

    private final InetSocketAddress address;
    private final ClientTransport transport;
    private final ClientCallFactory calls;

    TransportConnection(InetSocketAddress address, ClientTransport transport, Executor callbackExecutor, int maxInbound) {
      this.address = address;
      this.transport = transport;
      this.calls = ClientCallFactories.base(transport, callbackExecutor, maxInbound);
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      return calls.newCall(method, options);
    }

    @Override
    public InetSocketAddress address() {
      return address;
    }

    @Override
    public boolean isActive() {
      return transport.isActive();
    }

    @Override
    public WriteStats writeStats() {
      return transport.writeStats();
    }

    @Override
    public void close() {
      transport.shutdown();
    }

    @Override
    public String toString() {
      return "Connection{" + address.getHostString() + ':' + address.getPort() + '}';
    }
  }

  private static ClientTransportFactory loadTransportFactory() {
    return ServiceLoader.load(ClientTransportFactory.class, TripleClient.class.getClassLoader())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(
            "No Triple client transport on the class path: add io.triplerpc:triple-transport-netty"));
  }

  /** A builder; {@link Builder#address} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /** A proxy of {@code serviceInterface} using the client's default call options. */
  public <T> T proxy(Class<T> serviceInterface) {
    return proxy(serviceInterface, defaultOptions);
  }

  /**
   * A proxy of {@code serviceInterface} whose calls use {@code options}.
   *
   * @throws IllegalArgumentException if the interface is not a {@link TripleService} Triple can call
   */
  public <T> T proxy(Class<T> serviceInterface, CallOptions options) {
    Objects.requireNonNull(serviceInterface, "serviceInterface");
    Objects.requireNonNull(options, "options");
    if (cluster != null) {
      cluster.prepare(ServiceDescriptor.of(serviceInterface).serviceName());
    }
    CallOptions resolved = withCredentials(options);
    return TripleInvoker.newProxy(serviceInterface, chain(resolved), resolved, deserializationAllowList);
  }

  /** A new call through the client's interceptors, then those of {@code options}; not started. */
  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    CallOptions resolved = withCredentials(Objects.requireNonNull(options, "options"));
    return chain(resolved).newCall(method, resolved);
  }

  private CallOptions withCredentials(CallOptions options) {
    return credentials != null && options.callCredentials() == null ? options.withCallCredentials(credentials) : options;
  }

  private ClientCallFactory chain(CallOptions options) {
    ClientCallFactory calls = ClientCallFactories.intercept(base, options.interceptors());
    return ClientCallFactories.intercept(calls, interceptors);
  }

  /**
   * Whether a connection is up now: a volatile read for a client of one address; a client with a
   * cluster looks at each server's connection.
   */
  public boolean isConnectionActive() {
    return transport != null ? transport.isActive() : cluster.isActive();
  }

  /** How the client's connections batched their writes so far. */
  public WriteStats writeStats() {
    return transport != null ? transport.writeStats() : cluster.writeStats();
  }

  /**
   * Closes the connections; calls in flight fail with UNAVAILABLE. Idempotent; never blocks, except
   * to close a registry of the client's own (a {@code zookeeper://} target's, say).
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (transport != null) {
      transport.shutdown();
    } else {
      cluster.close();
    }
    transportFactory.close();
    // The owned callback pool is not shut down here: calls still in flight get their last events
    // (UNAVAILABLE) through it as the connections close. Its daemon threads end after 60 s idle.
  }

  /** Builds a {@link TripleClient}. Not thread-safe. */
  public static final class Builder {

    private InetSocketAddress address;
    private ClusterFactory clusterFactory;
    private Executor callbackExecutor;
    private CallOptions defaultOptions = CallOptions.DEFAULT;
    private final List<ClientInterceptor> interceptors = new ArrayList<>();
    private final DeserializationAllowList deserializationAllowList = DeserializationAllowList.create();
    private int maxInboundMessageSize = TransportOptions.DEFAULT_MAX_INBOUND_MESSAGE_SIZE;
    private int maxHeaderListSize = TransportOptions.DEFAULT_MAX_HEADER_LIST_SIZE;
    private int initialWindowSize = TransportOptions.DEFAULT_INITIAL_WINDOW_SIZE;
    private int connectionsPerAddress = 1;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration initialBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofMinutes(2);
    private int ioThreads;
    private TlsConfig tls;
    private CallCredentials credentials;
    private int maxQueuedControlFrames = TransportOptions.DEFAULT_MAX_QUEUED_CONTROL_FRAMES;
    /** Off by default, as in Netty's builder: a server can reset only streams this client opened. */
    private int maxRstFramesPerWindow;
    private int rstFramesWindowSeconds = TransportOptions.DEFAULT_RST_FRAMES_WINDOW_SECONDS;
    private int maxConsecutiveEmptyDataFrames = TransportOptions.DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES;
    private long maxPendingOutboundBytes = TransportOptions.DEFAULT_MAX_PENDING_OUTBOUND_BYTES;
    private long keepAliveTimeNanos = ConnectionTimers.clientDefaults().keepAliveTimeNanos();
    private long keepAliveTimeoutNanos = ConnectionTimers.clientDefaults().keepAliveTimeoutNanos();
    private boolean keepAliveWithoutCalls;

    private Builder() {}

    /** The server's host and port. */
    public Builder address(String host, int port) {
      this.address = InetSocketAddress.createUnresolved(Objects.requireNonNull(host, "host"), port);
      this.clusterFactory = null;
      return this;
    }

    /**
     * The server's address as {@code host:port}, or a target with a scheme that a
     * {@link TargetResolver} on the class path understands, such as {@code registry://127.0.0.1:7070}
     * or {@code zookeeper://zk1:2181,zk2:2181} ({@code triple-registry}).
     *
     * @throws IllegalArgumentException if it is neither, or no resolver knows the scheme
     */
    public Builder address(String hostAndPort) {
      Objects.requireNonNull(hostAndPort, "hostAndPort");
      int scheme = hostAndPort.indexOf("://");
      if (scheme > 0) {
        return cluster(resolve(hostAndPort, hostAndPort.substring(0, scheme).toLowerCase(java.util.Locale.ROOT)));
      }
      int colon = hostAndPort.lastIndexOf(':');
      if (colon <= 0 || colon == hostAndPort.length() - 1) {
        throw new IllegalArgumentException("Address must be host:port: " + hostAndPort);
      }
      String host = hostAndPort.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      return address(host, Integer.parseInt(hostAndPort.substring(colon + 1)));
    }

    private static ClusterFactory resolve(String target, String scheme) {
      URI uri;
      try {
        uri = new URI(target);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("Malformed target " + target + ": " + e.getMessage(), e);
      }
      for (TargetResolver resolver : ServiceLoader.load(TargetResolver.class, TripleClient.class.getClassLoader())) {
        if (resolver.supports(scheme)) {
          return resolver.resolve(uri);
        }
      }
      throw new IllegalArgumentException(
          "No resolver for " + scheme + ":// targets on the class path (add io.triplerpc:triple-registry): " + target);
    }

    /**
     * Spreads calls over the servers that {@code factory}'s cluster finds (a registry, say), instead
     * of one address.
     */
    public Builder cluster(ClusterFactory factory) {
      this.clusterFactory = Objects.requireNonNull(factory, "factory");
      this.address = null;
      return this;
    }

    /**
     * Where callbacks of asynchronous and streaming calls run (each call's callbacks in order, one at
     * a time); a cached pool of daemon threads by default. Synchronous unary calls run theirs on the
     * calling thread.
     */
    public Builder callbackExecutor(Executor executor) {
      this.callbackExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** Call options of proxies made without explicit ones (a default deadline, say). */
    public Builder defaultCallOptions(CallOptions options) {
      this.defaultOptions = Objects.requireNonNull(options, "options");
      return this;
    }

    /** Interceptors for every call, the first one outermost. */
    public Builder intercept(ClientInterceptor... interceptors) {
      for (ClientInterceptor interceptor : interceptors) {
        this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      }
      return this;
    }

    /** Largest response message accepted; 4 MiB by default. */
    public Builder maxInboundMessageSize(int bytes) {
      this.maxInboundMessageSize = bytes;
      return this;
    }

    /** Largest response header block accepted; 8 KiB by default. */
    public Builder maxHeaderListSize(int bytes) {
      this.maxHeaderListSize = bytes;
      return this;
    }

    /** The HTTP/2 flow-control window of each stream; 1 MiB by default. */
    public Builder initialWindowSize(int bytes) {
      this.initialWindowSize = bytes;
      return this;
    }

    /** Connections to open to the address, used round robin; 1 by default. */
    public Builder connectionsPerAddress(int connections) {
      this.connectionsPerAddress = connections;
      return this;
    }

    /** How long to wait for a connection; 10 s by default. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** Reconnect backoff: first delay (1 s) doubling up to the maximum (2 min), with jitter. */
    public Builder reconnectBackoff(Duration initial, Duration max) {
      this.initialBackoff = Objects.requireNonNull(initial, "initial");
      this.maxBackoff = Objects.requireNonNull(max, "max");
      return this;
    }

    /**
     * Event loop threads; 0 (the default) for as many as connections per address (at most one per
     * core) for a client of one address, one per core for a client with a cluster.
     */
    public Builder ioThreads(int threads) {
      this.ioThreads = threads;
      return this;
    }

    /**
     * Connects with TLS (ALPN {@code h2}): the server's certificate is verified against
     * {@link TlsConfig#trustCertificates()} (the JDK's trust store when not set) and its host name;
     * a {@link TlsConfig#certificateChain()} is presented for mutual TLS.
     */
    public Builder tls(TlsConfig tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
      return this;
    }

    /**
     * Credentials for every call whose {@link CallOptions} bring none, such as
     * {@link CallCredentials#bearerToken}. Sent over TLS only, unless they
     * {@linkplain CallCredentials#allowsCleartext() allow cleartext}.
     */
    public Builder callCredentials(CallCredentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /**
     * HTTP/2 control frames (PING and SETTINGS acknowledgements, RST_STREAM) a connection may hold
     * that its socket has not taken yet, as for a server that sends PINGs and never reads; past it,
     * the connection closes and its calls fail with UNAVAILABLE. 10,000 by default, as Netty's HTTP/2
     * builder; 0 for no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxQueuedControlFrames(int frames) {
      this.maxQueuedControlFrames = TransportOptions.checkLimit(frames, "maxQueuedControlFrames");
      return this;
    }

    /**
     * RST_STREAM frames a connection may receive per {@code window}, and apart from those, send (this
     * client's own cancellations count); past it, GOAWAY ENHANCE_YOUR_CALM and the connection closes.
     * No limit by default, as in Netty's HTTP/2 builder for clients: a server can reset only the streams
     * this client opened. 0 frames for no limit.
     *
     * @param window whole seconds, at least 1
     * @throws IllegalArgumentException if {@code frames} is negative or {@code window} out of range
     */
    public Builder maxRstFramesPerWindow(int frames, Duration window) {
      Objects.requireNonNull(window, "window");
      this.maxRstFramesPerWindow = TransportOptions.checkLimit(frames, "maxRstFramesPerWindow");
      this.rstFramesWindowSeconds = TransportOptions.windowSeconds(window);
      return this;
    }

    /**
     * Empty DATA frames without END_STREAM a server may send in a row; one more than the limit gets
     * GOAWAY ENHANCE_YOUR_CALM, and the connection's calls fail with UNAVAILABLE. 2 by default, as
     * Netty's HTTP/2 builder; 0 for no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxConsecutiveEmptyDataFrames(int frames) {
      this.maxConsecutiveEmptyDataFrames = TransportOptions.checkLimit(frames, "maxConsecutiveEmptyDataFrames");
      return this;
    }

    /**
     * Sends a PING when nothing has been read from a connection for {@code time}, so that a connection
     * a NAT or load balancer dropped without a word is found and replaced before a call waits on it;
     * see {@link #keepAliveTimeout}. Off by default, as in grpc-java. Servers refuse pings more frequent
     * than they permit (grpc-java's and Triple's permit one per 5 minutes by default) with GOAWAY
     * ENHANCE_YOUR_CALM "too_many_pings"; the client then doubles this time for its new connections.
     * grpc-java raises times below 10 s to 10 s; Triple takes the time given.
     * {@code ChronoUnit.FOREVER.getDuration()} turns keepalive off.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder keepAliveTime(Duration time) {
      this.keepAliveTimeNanos = ConnectionTimers.nanos(Objects.requireNonNull(time, "time"), "keepAliveTime", false);
      return this;
    }

    /**
     * How long a keepalive PING may go without anything read from the server before the connection is
     * taken for dead: it closes, its calls fail with UNAVAILABLE, and the next call opens a new one.
     * 20 s by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder keepAliveTimeout(Duration timeout) {
      this.keepAliveTimeoutNanos =
          ConnectionTimers.nanos(Objects.requireNonNull(timeout, "timeout"), "keepAliveTimeout", false);
      return this;
    }

    /**
     * Whether keepalive pings go out on a connection without calls too, keeping it warm for the next
     * call (servers must permit it: {@code permitKeepAliveWithoutCalls}). False by default: a connection
     * without calls is pinged again when a call starts after {@link #keepAliveTime} of silence.
     */
    public Builder keepAliveWithoutCalls(boolean enabled) {
      this.keepAliveWithoutCalls = enabled;
      return this;
    }

    /**
     * Request bytes a connection may hold that its server has not taken: messages waiting for the
     * server's flow-control window, or for a socket the server does not drain. Past the limit, the
     * call whose request is being written fails with RESOURCE_EXHAUSTED (RST_STREAM ENHANCE_YOUR_CALM),
     * and if it is reached again before the server has opened its connection window, the connection
     * closes (GOAWAY ENHANCE_YOUR_CALM). 64 MiB by default; 0 for no limit. A streaming call that
     * honours {@code isReady()} never comes near it.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxPendingOutboundBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("maxPendingOutboundBytes must be >= 0: " + bytes);
      }
      this.maxPendingOutboundBytes = bytes;
      return this;
    }

    TransportOptions transportOptions() {
      ConnectionTimers timers = ConnectionTimers.clientDefaults();
      return new TransportOptions(
          maxInboundMessageSize,
          maxHeaderListSize,
          TransportOptions.DEFAULT_MAX_CONCURRENT_STREAMS,
          initialWindowSize,
          connectionsPerAddress,
          (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()),
          initialBackoff.toMillis(),
          maxBackoff.toMillis(),
          ioThreads,
          0,
          tls,
          false,
          maxQueuedControlFrames,
          maxRstFramesPerWindow,
          rstFramesWindowSeconds,
          maxConsecutiveEmptyDataFrames,
          new ConnectionTimers(keepAliveTimeNanos, keepAliveTimeoutNanos, keepAliveWithoutCalls,
              timers.permitKeepAliveTimeNanos(), timers.permitKeepAliveWithoutCalls(),
              timers.maxConnectionIdleNanos(), timers.maxConnectionAgeNanos(), timers.maxConnectionAgeGraceNanos(),
              timers.handshakeTimeoutNanos(), timers.httpHeaderReadTimeoutNanos(),
              timers.httpBodyIdleTimeoutNanos()),
          maxPendingOutboundBytes);
    }

    /**
     * Lets responses of plain Java (hessian2, JSON) services hold values of these classes too: exact class
     * names, or package prefixes ending with a dot. By default a response may hold only classes its
     * service's signatures reach and a few JDK value types; see
     * {@link io.triplerpc.serialization.object.AllowedClasses}. Adds to what
     * {@code META-INF/triple/serialize.allowlist} and {@code -Dtriple.serialization.allow} allow; applies
     * to the proxies of the client built next.
     *
     * @throws IllegalArgumentException if an entry is not a class name or a prefix of two or more levels
     */
    public Builder allowDeserialization(String... classNamesOrPackagePrefixes) {
      deserializationAllowList.add(classNamesOrPackagePrefixes);
      return this;
    }

    /** Builds the client; no connection opens until the first call. */
    public TripleClient build() {
      if (address == null && clusterFactory == null) {
        throw new IllegalStateException("address (or cluster) is required");
      }
      return new TripleClient(this);
    }
  }
}
