package io.triplerpc;

import io.triplerpc.internal.health.HealthService;
import io.triplerpc.internal.reflection.DescriptorIndex;
import io.triplerpc.internal.reflection.ReflectionServiceImpl;
import io.triplerpc.internal.reflection.ReflectionV1AlphaService;
import io.triplerpc.internal.reflection.ReflectionV1Service;
import io.triplerpc.internal.server.ServerDispatcher;
import io.triplerpc.internal.server.ServerMethodDefinition;
import io.triplerpc.internal.server.ServiceAdapters;
import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.internal.stream.ServerTransportFactory;
import io.triplerpc.internal.stream.ConnectionTimers;
import io.triplerpc.internal.stream.TransportOptions;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.spi.ServerRegistration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@link TripleService} implementations over gRPC on one port.
 *
 * <pre>{@code
 * TripleServer server = TripleServer.builder()
 *     .port(50051)
 *     .addService(Greeter.class, new GreeterImpl())
 *     .build()
 *     .start();
 * server.awaitTermination();
 * }</pre>
 *
 * <p>Every server also serves gRPC's health service ({@code grpc.health.v1.Health}, see
 * {@link #health()}) and server reflection ({@code grpc.reflection.v1} and {@code v1alpha}), which
 * describes each service whose messages are protobuf messages, so {@code grpcurl} needs no .proto
 * file.
 *
 * <p>Thread-safe. {@link #shutdown()} drains gracefully: GOAWAY goes out, calls in flight finish,
 * then connections close.
 */
public final class TripleServer {

  private static final Logger log = LoggerFactory.getLogger(TripleServer.class);

  private final InetSocketAddress bindAddress;
  private final TransportOptions options;
  private final List<ServerMethodDefinition<?, ?>> definitions;
  private final List<ServerInterceptor> interceptors;
  private final AccessPolicy accessPolicy;
  private final Executor executor;
  private final ExecutorService ownedExecutor;
  private final HealthStatusManager health = new HealthStatusManager();
  private final List<ServerInfo.Service> services;
  private final List<ServerRegistration> registrations;
  /** The registrations whose {@code started} returned, in order: only they are told of the shutdown. */
  private final List<ServerRegistration> announced = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final AtomicBoolean withdrawn = new AtomicBoolean();
  private volatile ServerTransport transport;
  private volatile ServerInfo info;

  private TripleServer(Builder builder) {
    this.bindAddress = new InetSocketAddress(builder.host, builder.port);
    this.options = builder.transportOptions();
    List<ServerMethodDefinition<?, ?>> all = new ArrayList<>(builder.definitions);
    Set<String> served = new LinkedHashSet<>();
    all.forEach(definition -> served.add(definition.method().serviceName()));
    if (!served.contains(HEALTH_SERVICE)) {
      all.addAll(ServiceAdapters.definitions(HealthService.class, health.service()));
    }
    if (!served.contains(REFLECTION_V1) && !served.contains(REFLECTION_V1ALPHA)) {
      List<ServerMethodDefinition<?, ?>> described = all;
      ReflectionServiceImpl reflection = new ReflectionServiceImpl(() -> DescriptorIndex.of(
          described.stream().map(ServerMethodDefinition::method).collect(Collectors.toList())));
      all.addAll(ServiceAdapters.definitions(ReflectionV1Service.class, reflection));
      all.addAll(ServiceAdapters.definitions(ReflectionV1AlphaService.class, reflection.v1alpha()));
    }
    this.definitions = List.copyOf(all);
    health.setStatus("", HealthStatusManager.ServingStatus.SERVING);
    served.forEach(service -> health.setStatus(service, HealthStatusManager.ServingStatus.SERVING));
    this.interceptors = List.copyOf(builder.interceptors);
    this.accessPolicy = builder.accessPolicy;
    if (accessPolicy != null) {
      checkNamesServed(accessPolicy, definitions);
    }
    this.services = List.copyOf(builder.services.values());
    this.registrations = List.copyOf(builder.registrations);
    this.ownedExecutor = builder.executor == null ? newServiceExecutor() : null;
    this.executor = builder.executor != null ? builder.executor : ownedExecutor;
  }

  /** A policy naming a service or method the server does not serve has a typo that would go unnoticed. */
  private static void checkNamesServed(AccessPolicy policy, List<ServerMethodDefinition<?, ?>> definitions) {
    Set<String> served = new java.util.HashSet<>();
    for (ServerMethodDefinition<?, ?> definition : definitions) {
      served.add(definition.method().serviceName());
      served.add(definition.method().fullMethodName());
    }
    for (String name : policy.names()) {
      if (!served.contains(name)) {
        throw new IllegalArgumentException("The access policy names " + name + ", which this server does not serve");
      }
    }
  }

  private static final String HEALTH_SERVICE = "grpc.health.v1.Health";
  private static final String REFLECTION_V1 = "grpc.reflection.v1.ServerReflection";
  private static final String REFLECTION_V1ALPHA = "grpc.reflection.v1alpha.ServerReflection";

  /** A builder serving on all interfaces at a port chosen by the system, until set. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Binds the port and starts serving; returns this server.
   *
   * @throws UncheckedIOException if the port cannot be bound
   * @throws IllegalStateException if already started
   * @throws RuntimeException what a {@link Builder#registration registration} threw; the server is
   *     then shut down and its port released
   */
  public synchronized TripleServer start() {
    if (transport != null) {
      throw new IllegalStateException("Server already started");
    }
    ServerTransportFactory factory = ServiceLoader.load(ServerTransportFactory.class, TripleServer.class.getClassLoader())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(
            "No Triple server transport on the class path: add io.triplerpc:triple-transport-netty"));
    ServerDispatcher dispatcher =
        new ServerDispatcher(definitions, interceptors, accessPolicy, executor, options.maxInboundMessageSize());
    try {
      transport = factory.start(bindAddress, options, dispatcher);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serve on " + bindAddress + ": " + e.getMessage(), e);
    }
    if (ownedExecutor != null) {
      transport.terminationFuture().whenComplete((v, t) -> ownedExecutor.shutdown());
    }
    info = new ServerInfo(transport.localAddress(), services);
    for (ServerRegistration registration : registrations) {
      try {
        registration.started(info);
      } catch (RuntimeException | Error e) {
        // No half-started server: withdraw from the registries told so far, release the port.
        shutdownNow();
        throw e;
      }
      announced.add(registration);
    }
    return this;
  }

  /** Withdraws the server from its registries, once, before its calls drain. */
  private void withdraw() {
    ServerInfo started = info;
    if (started == null || !withdrawn.compareAndSet(false, true)) {
      return;
    }
    for (ServerRegistration registration : announced) {
      try {
        registration.stopping(started);
      } catch (RuntimeException e) {
        // A registry that cannot be told still lets the server shut down; leases expire.
        log.warn("Could not withdraw {} from a registry: {}", started.localAddress(), e.toString());
      }
    }
  }

  /**
   * The serving status reported by the built-in health service ({@code grpc.health.v1.Health}): the
   * server ({@code ""}) and each service start SERVING.
   */
  public HealthStatusManager health() {
    return health;
  }

  /** The port the server listens on (the real one when 0 was asked for). */
  public int port() {
    return started().localAddress().getPort();
  }

  /** The address the server listens on. */
  public InetSocketAddress localAddress() {
    return started().localAddress();
  }

  /**
   * Starts a graceful shutdown: the server is withdrawn from its registries (waiting for them, at
   * most their timeout), then no new connections or calls; calls in flight go on; each connection
   * closes when its last call ends. Otherwise never blocks.
   */
  public void shutdown() {
    withdraw();
    health.enterTerminalState();
    ServerTransport t = transport;
    if (t != null) {
      t.shutdown();
    }
  }

  /**
   * Withdraws the server from its registries (as {@link #shutdown} does), then closes every connection
   * at once; calls in flight are cancelled.
   */
  public void shutdownNow() {
    withdraw();
    health.enterTerminalState();
    ServerTransport t = transport;
    if (t != null) {
      t.shutdownNow();
    }
  }

  /** Whether the server has shut down completely. */
  public boolean isTerminated() {
    ServerTransport t = transport;
    return t != null && t.terminationFuture().isDone();
  }

  /** Waits until the server has shut down completely. */
  public void awaitTermination() throws InterruptedException {
    try {
      started().terminationFuture().get();
    } catch (java.util.concurrent.ExecutionException e) {
      // Termination failures are logged by the transport; the server is down either way.
    }
  }

  /** Waits at most {@code timeout} for a complete shutdown; returns whether it happened. */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    try {
      started().terminationFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return true;
    }
  }

  private ServerTransport started() {
    ServerTransport t = transport;
    if (t == null) {
      throw new IllegalStateException("Server not started");
    }
    return t;
  }

  private static ExecutorService newServiceExecutor() {
    AtomicInteger count = new AtomicInteger();
    return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
      Thread thread = new Thread(task, "triple-service-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Builds a {@link TripleServer}. Not thread-safe. */
  public static final class Builder {

    private String host = "0.0.0.0";
    private int port;
    private final List<ServerMethodDefinition<?, ?>> definitions = new ArrayList<>();
    private final List<ServerInterceptor> interceptors = new ArrayList<>();
    private final Map<String, ServerInfo.Service> services = new LinkedHashMap<>();
    private final List<ServerRegistration> registrations = new ArrayList<>();
    private final DeserializationAllowList deserializationAllowList = DeserializationAllowList.create();
    private Executor executor;
    private int maxInboundMessageSize = TransportOptions.DEFAULT_MAX_INBOUND_MESSAGE_SIZE;
    private int maxHeaderListSize = TransportOptions.DEFAULT_MAX_HEADER_LIST_SIZE;
    private int maxConcurrentStreams = TransportOptions.DEFAULT_MAX_CONCURRENT_STREAMS;
    private int initialWindowSize = TransportOptions.DEFAULT_INITIAL_WINDOW_SIZE;
    private int ioThreads;
    private Duration drainGrace = Duration.ofSeconds(1);
    private TlsConfig tls;
    private boolean plaintextAlongsideTls;
    private AccessPolicy accessPolicy;
    private int maxQueuedControlFrames = TransportOptions.DEFAULT_MAX_QUEUED_CONTROL_FRAMES;
    private int maxRstFramesPerWindow = TransportOptions.DEFAULT_MAX_RST_FRAMES_PER_WINDOW;
    private int rstFramesWindowSeconds = TransportOptions.DEFAULT_RST_FRAMES_WINDOW_SECONDS;
    private int maxConsecutiveEmptyDataFrames = TransportOptions.DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES;
    private long maxPendingOutboundBytes = TransportOptions.DEFAULT_MAX_PENDING_OUTBOUND_BYTES;
    private final ConnectionTimers defaultTimers = ConnectionTimers.serverDefaults();
    private long keepAliveTimeNanos = defaultTimers.keepAliveTimeNanos();
    private long keepAliveTimeoutNanos = defaultTimers.keepAliveTimeoutNanos();
    private long permitKeepAliveTimeNanos = defaultTimers.permitKeepAliveTimeNanos();
    private boolean permitKeepAliveWithoutCalls = defaultTimers.permitKeepAliveWithoutCalls();
    private long maxConnectionIdleNanos = defaultTimers.maxConnectionIdleNanos();
    private long maxConnectionAgeNanos = defaultTimers.maxConnectionAgeNanos();
    private long maxConnectionAgeGraceNanos = defaultTimers.maxConnectionAgeGraceNanos();
    private long handshakeTimeoutNanos = defaultTimers.handshakeTimeoutNanos();
    private long httpHeaderReadTimeoutNanos = defaultTimers.httpHeaderReadTimeoutNanos();
    private long httpBodyIdleTimeoutNanos = defaultTimers.httpBodyIdleTimeoutNanos();

    private Builder() {}

    /** The port; 0 (the default) lets the system choose, see {@link TripleServer#port()}. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
      return this;
    }

    /** The interface to bind, such as {@code 127.0.0.1}; all interfaces by default. */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /**
     * Serves {@code implementation} as {@code serviceInterface}.
     *
     * @throws IllegalArgumentException if the interface is not a valid {@link TripleService}
     */
    public <T> Builder addService(Class<T> serviceInterface, T implementation) {
      Objects.requireNonNull(serviceInterface, "serviceInterface");
      Objects.requireNonNull(implementation, "implementation");
      List<ServerMethodDefinition<?, ?>> added =
          ServiceAdapters.definitions(serviceInterface, implementation, deserializationAllowList);
      definitions.addAll(added);
      TripleService annotation = serviceInterface.getAnnotation(TripleService.class);
      for (ServerMethodDefinition<?, ?> definition : added) {
        describe(definition.method(), annotation == null ? "" : annotation.version(),
            annotation == null ? "" : annotation.group());
      }
      return this;
    }

    /**
     * Lets requests of this server's plain Java (hessian2, JSON) services hold values of these classes too:
     * exact class names, or package prefixes ending with a dot. By default a request may hold only classes
     * its service's signatures reach and a few JDK value types; see
     * {@link io.triplerpc.serialization.object.AllowedClasses}. Applies to every service of this builder,
     * whenever added; adds to what {@code META-INF/triple/serialize.allowlist} and
     * {@code -Dtriple.serialization.allow} allow.
     *
     * @throws IllegalArgumentException if an entry is not a class name or a prefix of two or more levels
     */
    public Builder allowDeserialization(String... classNamesOrPackagePrefixes) {
      deserializationAllowList.add(classNamesOrPackagePrefixes);
      return this;
    }

    private void describe(MethodDescriptor<?, ?> method, String version, String group) {
      ServerInfo.Service known = services.get(method.serviceName());
      List<String> methods = new ArrayList<>(known == null ? List.of() : known.methods());
      methods.add(method.methodName());
      services.put(method.serviceName(), new ServerInfo.Service(
          method.serviceName(), methods, method.requestCodec().subtype(), version, group));
    }

    /** Serves one method with a hand-written handler. */
    public <Q, R> Builder addMethod(MethodDescriptor<Q, R> method, ServerCallHandler<Q, R> handler) {
      definitions.add(new ServerMethodDefinition<>(
          Objects.requireNonNull(method, "method"), Objects.requireNonNull(handler, "handler")));
      describe(method, "", "");
      return this;
    }

    /**
     * Announces the server in a registry: {@code registration} is told once the port is bound, and
     * again when a shutdown begins, before calls drain.
     */
    public Builder registration(ServerRegistration registration) {
      registrations.add(Objects.requireNonNull(registration, "registration"));
      return this;
    }

    /** Interceptors for every call, the first one outermost. */
    public Builder intercept(ServerInterceptor... interceptors) {
      for (ServerInterceptor interceptor : interceptors) {
        this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      }
      return this;
    }

    /**
     * Authenticates and authorizes every call before its interceptors and service see it (health and
     * reflection included, unless the policy opens them); anyone may call anything without one.
     */
    public Builder accessPolicy(AccessPolicy policy) {
      this.accessPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Where service methods run (each call's events in order, one at a time); a cached pool of daemon
     * threads by default.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** Largest request message accepted; 4 MiB by default. Larger ones fail with RESOURCE_EXHAUSTED. */
    public Builder maxInboundMessageSize(int bytes) {
      this.maxInboundMessageSize = bytes;
      return this;
    }

    /** Largest request header block accepted; 8 KiB by default. */
    public Builder maxHeaderListSize(int bytes) {
      this.maxHeaderListSize = bytes;
      return this;
    }

    /** Streams a client may have open on one connection; 1000 by default. */
    public Builder maxConcurrentStreams(int streams) {
      this.maxConcurrentStreams = streams;
      return this;
    }

    /** The HTTP/2 flow-control window of each stream; 1 MiB by default. */
    public Builder initialWindowSize(int bytes) {
      this.initialWindowSize = bytes;
      return this;
    }

    /** Event loop threads; 0 (the default) for one per core. */
    public Builder ioThreads(int threads) {
      this.ioThreads = threads;
      return this;
    }

    /**
     * How long a graceful shutdown waits for the client's answer to the PING sent with its first
     * GOAWAY before it sends the second (the one that names the last stream processed) anyway; the
     * answer, when it comes first, shows every stream the client sent before is in. 1 s by default.
     */
    public Builder drainGrace(Duration grace) {
      this.drainGrace = Objects.requireNonNull(grace, "grace");
      return this;
    }

    /**
     * Serves TLS only (ALPN {@code h2} for gRPC, {@code http/1.1} for curl and browsers), with the
     * certificate of {@code tls}: a connection that does not start with a TLS handshake is closed
     * before any of its requests reaches a service, unless {@link #plaintextAlongsideTls} opts in.
     *
     * @throws IllegalArgumentException if {@code tls} has neither a certificate nor an SSLContext
     */
    public Builder tls(TlsConfig tls) {
      Objects.requireNonNull(tls, "tls");
      if (tls.sslContext() == null && tls.certificateChain() == null) {
        throw new IllegalArgumentException("A server's TlsConfig needs keyCertChain(...) or sslContext(...)");
      }
      this.tls = tls;
      return this;
    }

    /**
     * With {@link #tls}: whether cleartext connections (HTTP/2 and HTTP/1.1) are served on the same
     * port too, told apart from TLS by their first bytes; false by default. Meant for migrations and
     * test servers: a cleartext client skips every guarantee TLS gives, so {@link #build()} refuses
     * this together with {@link TlsConfig.ClientAuth#REQUIRE}.
     */
    public Builder plaintextAlongsideTls(boolean enabled) {
      this.plaintextAlongsideTls = enabled;
      return this;
    }

    /**
     * HTTP/2 control frames (PING and SETTINGS acknowledgements, RST_STREAM) a connection may hold
     * that its socket has not taken yet, as for a client that sends PINGs and never reads
     * (CVE-2019-9512, CVE-2019-9515); past it, the connection closes (the GOAWAY ENHANCE_YOUR_CALM it
     * queues waits behind what the client does not read). 10,000 by default, as Netty's HTTP/2
     * builder, grpc-java's server and Go; 0 for no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxQueuedControlFrames(int frames) {
      this.maxQueuedControlFrames = TransportOptions.checkLimit(frames, "maxQueuedControlFrames");
      return this;
    }

    /**
     * RST_STREAM frames a connection may receive per {@code window}, and apart from those, send: a
     * client that opens and resets streams faster (rapid reset, CVE-2023-44487), or makes the server
     * reset them (CVE-2025-55163), gets GOAWAY ENHANCE_YOUR_CALM and the connection closes. 200 per
     * 30 s by default, as Netty's HTTP/2 builder; grpc-java's {@code maxRstFramesPerWindow} has no
     * limit by default. Clients send RST_STREAM when they cancel calls, so a client that cancels many
     * calls on one connection needs a higher limit. 0 frames for no limit.
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
     * Empty DATA frames without END_STREAM a client may send in a row, which no valid client does and
     * which cost the server a read each; one more than the limit gets GOAWAY ENHANCE_YOUR_CALM and
     * the connection closes. 2 by default, as Netty's HTTP/2 builder; 0 for no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxConsecutiveEmptyDataFrames(int frames) {
      this.maxConsecutiveEmptyDataFrames = TransportOptions.checkLimit(frames, "maxConsecutiveEmptyDataFrames");
      return this;
    }

    /**
     * Sends a PING when nothing has been read from a connection for {@code time}, and closes the
     * connection if the client then stays silent for {@link #keepAliveTimeout}: a client that vanished
     * (a dropped NAT entry, a pulled cable) costs its connection and calls no longer than that. 2 hours by
     * default, as in grpc-java; {@code ChronoUnit.FOREVER.getDuration()} turns it off.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder keepAliveTime(Duration time) {
      this.keepAliveTimeNanos = ConnectionTimers.nanos(Objects.requireNonNull(time, "time"), "keepAliveTime", false);
      return this;
    }

    /**
     * How long a keepalive PING may go without anything read from the client before the connection is
     * closed (its calls are cancelled). 20 s by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder keepAliveTimeout(Duration timeout) {
      this.keepAliveTimeoutNanos =
          ConnectionTimers.nanos(Objects.requireNonNull(timeout, "timeout"), "keepAliveTimeout", false);
      return this;
    }

    /**
     * The shortest interval between a client's PINGs that the server lets pass. A client that pings
     * more often gets two strikes; the third too-early PING gets GOAWAY ENHANCE_YOUR_CALM with debug
     * data "too_many_pings" and the connection closes (grpc-java's and Go's clients then double their
     * keepalive time). Strikes are forgiven whenever the server sends headers or data. 5 minutes by
     * default, as in grpc-java and Go; zero permits any rate.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder permitKeepAliveTime(Duration time) {
      this.permitKeepAliveTimeNanos =
          ConnectionTimers.nanos(Objects.requireNonNull(time, "time"), "permitKeepAliveTime", true);
      return this;
    }

    /**
     * Whether a client may ping at {@link #permitKeepAliveTime} on a connection without calls. False by
     * default, as in grpc-java: such a connection may be pinged once per two hours.
     */
    public Builder permitKeepAliveWithoutCalls(boolean permitted) {
      this.permitKeepAliveWithoutCalls = permitted;
      return this;
    }

    /**
     * Closes a connection that has had no calls for {@code idle}: GOAWAY (debug data "max_idle"), so
     * its client opens a new one when it needs one. Off by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder maxConnectionIdle(Duration idle) {
      this.maxConnectionIdleNanos =
          ConnectionTimers.nanos(Objects.requireNonNull(idle, "idle"), "maxConnectionIdle", false);
      return this;
    }

    /**
     * Closes a connection gracefully once it has lived for {@code age}, give or take 10% so that the
     * connections opened together do not all close together: GOAWAY (debug data "max_age"), new calls
     * go to a new connection, calls in flight finish (see {@link #maxConnectionAgeGrace}). It spreads
     * clients over servers added since they connected. Off by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder maxConnectionAge(Duration age) {
      this.maxConnectionAgeNanos = ConnectionTimers.nanos(Objects.requireNonNull(age, "age"), "maxConnectionAge", false);
      return this;
    }

    /**
     * How long the calls in flight on a connection closed for its {@link #maxConnectionAge} may still
     * run; then the connection closes and they fail with UNAVAILABLE. Unbounded by default, as in
     * grpc-java.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxConnectionAgeGrace(Duration grace) {
      this.maxConnectionAgeGraceNanos =
          ConnectionTimers.nanos(Objects.requireNonNull(grace, "grace"), "maxConnectionAgeGrace", true);
      return this;
    }

    /**
     * How long a new connection has to choose its protocol (a TLS handshake, then the HTTP/2 preface
     * or an HTTP/1.1 request's headers) before it is closed, so that connections that never speak do
     * not pile up. 120 s by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder handshakeTimeout(Duration timeout) {
      this.handshakeTimeoutNanos =
          ConnectionTimers.nanos(Objects.requireNonNull(timeout, "timeout"), "handshakeTimeout", false);
      return this;
    }

    /**
     * HTTP/1.1 read timeouts: how long a request's line and headers may take to arrive once its first
     * byte has ({@code headers}), and how long its body may go without a byte arriving
     * ({@code bodyIdle}); past either, the server answers 408 and closes the connection, so that a
     * client trickling bytes (slowloris) holds no connection for long. 60 s each by default, as nginx's
     * {@code client_header_timeout} and {@code client_body_timeout}.
     *
     * @throws IllegalArgumentException if either is not positive
     */
    public Builder httpReadTimeouts(Duration headers, Duration bodyIdle) {
      this.httpHeaderReadTimeoutNanos =
          ConnectionTimers.nanos(Objects.requireNonNull(headers, "headers"), "httpHeaderReadTimeout", false);
      this.httpBodyIdleTimeoutNanos =
          ConnectionTimers.nanos(Objects.requireNonNull(bodyIdle, "bodyIdle"), "httpBodyIdleTimeout", false);
      return this;
    }

    /**
     * Response bytes a connection may hold that its client has not taken: messages waiting for the
     * client's flow-control window, or for a socket the client does not drain. A client that reads
     * nothing would otherwise pin every response it asks for. Past the limit, the call whose response
     * is being written is reset (RST_STREAM ENHANCE_YOUR_CALM; the service sees it cancelled with
     * RESOURCE_EXHAUSTED), and if the limit is reached again before the client has opened its
     * connection window, the connection goes away (GOAWAY ENHANCE_YOUR_CALM). 64 MiB by default; a
     * server whose clients keep more response bytes than that in flight on one connection should raise
     * it. grpc-java and Netty set no such limit. 0 for no limit.
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
      TransportOptions defaults = TransportOptions.defaults();
      return new TransportOptions(
          maxInboundMessageSize,
          maxHeaderListSize,
          maxConcurrentStreams,
          initialWindowSize,
          1,
          defaults.connectTimeoutMillis(),
          defaults.initialBackoffMillis(),
          defaults.maxBackoffMillis(),
          ioThreads,
          drainGrace.toMillis(),
          tls,
          plaintextAlongsideTls,
          maxQueuedControlFrames,
          maxRstFramesPerWindow,
          rstFramesWindowSeconds,
          maxConsecutiveEmptyDataFrames,
          new ConnectionTimers(keepAliveTimeNanos, keepAliveTimeoutNanos, true,
              permitKeepAliveTimeNanos, permitKeepAliveWithoutCalls,
              maxConnectionIdleNanos, maxConnectionAgeNanos, maxConnectionAgeGraceNanos,
              handshakeTimeoutNanos, httpHeaderReadTimeoutNanos, httpBodyIdleTimeoutNanos),
          maxPendingOutboundBytes);
    }

    /**
     * Builds the server; {@link TripleServer#start()} binds the port.
     *
     * @throws IllegalStateException if {@link #plaintextAlongsideTls} is set without {@link #tls}, or
     *     with a {@code tls} that requires client certificates
     */
    public TripleServer build() {
      if (plaintextAlongsideTls && tls == null) {
        throw new IllegalStateException("plaintextAlongsideTls(true) needs tls(...): without TLS the server"
            + " serves only cleartext anyway");
      }
      if (plaintextAlongsideTls && tls.clientAuth() == TlsConfig.ClientAuth.REQUIRE) {
        throw new IllegalStateException("plaintextAlongsideTls(true) contradicts ClientAuth.REQUIRE: cleartext"
            + " clients present no certificate, so mutual TLS could be bypassed on the same port;"
            + " serve cleartext on another port, or use ClientAuth.OPTIONAL");
      }
      return new TripleServer(this);
    }
  }
}
