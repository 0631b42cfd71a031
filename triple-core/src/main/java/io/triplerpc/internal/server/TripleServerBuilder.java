package io.triplerpc.internal.server;

import io.triplerpc.AccessPolicy;
import io.triplerpc.AdaptiveConcurrencyLimit;
import io.triplerpc.CorsPolicy;
import io.triplerpc.HttpGetHandler;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.internal.descriptor.GenericInvocation;
import io.triplerpc.internal.descriptor.WrappedMethod;
import io.triplerpc.internal.stream.AbstractTransportBuilder;
import io.triplerpc.internal.stream.Http2Limits;
import io.triplerpc.internal.stream.Http3Options;
import io.triplerpc.internal.stream.Http3ServerTransportFactory;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.internal.stream.ServerConnectionTimers;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.internal.wire.ServiceExports;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.spi.AdminView;
import io.triplerpc.spi.ServerRegistration;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.concurrent.Executor;

/**
 * The {@link TripleServer.Builder}: its fields start at {@link ServerTransportOptions#DEFAULTS}, the one
 * place the defaults are stated (the settings a client shares, in {@link AbstractTransportBuilder}), and
 * {@link #transportOptions()} turns them into the transport's options.
 */
public final class TripleServerBuilder extends AbstractTransportBuilder<TripleServer.Builder>
    implements TripleServer.Builder {

  private static final ServerTransportOptions DEFAULTS = ServerTransportOptions.DEFAULTS;
  /** The executor of {@link #directExecutor()}: the caller's thread, an event loop. */
  static final Executor DIRECT = Runnable::run;

  private String host = "0.0.0.0";
  private int port;
  /**
   * What each {@code addService} and {@code addMethod} serves, in order, made at {@link #build()} with the
   * allow list as it is then (services added before a later {@code allowDeserialization} get it too).
   */
  private final List<Function<DeserializationAllowList, List<ServerMethodDefinition<?, ?>>>> definitions =
      new ArrayList<>();
  private final List<ServerInterceptor> interceptors = new ArrayList<>();
  private final Map<String, ServerInfo.Service> services = new LinkedHashMap<>();
  /** Service name → the outer class of the .proto file declaring it ({@link TripleService#protoFile()}). */
  private final Map<String, Class<?>> protoFiles = new LinkedHashMap<>();
  /** Where the OpenAPI document is served, or null. */
  private String openApiPath;
  /** Where the docs page is served, or null. */
  private String openApiDocsPath;
  /** The admin endpoint's port on loopback; -1 for none. */
  private int adminPort = -1;
  /** Where the admin endpoint is bound beyond loopback, or null; then {@link #adminPolicy} guards it. */
  private InetSocketAddress adminAddress;
  private AccessPolicy adminPolicy;
  /** What the admin endpoint shows beside the server's own sections. */
  private final List<AdminView> adminViews = new ArrayList<>();
  /** Each service's interface, whose REST annotations (JAX-RS, Spring Web) the server reads. */
  private final Map<String, Class<?>> interfaces = new LinkedHashMap<>();
  private final List<ServerRegistration> registrations = new ArrayList<>();
  private final Map<String, Integer> concurrencyLimits = new LinkedHashMap<>();
  private AdaptiveConcurrencyLimit adaptiveLimit;
  private AccessPolicy accessPolicy;
  private CorsPolicy cors;
  /** Plain HTTP GET handlers by path, in the order added. */
  private final Map<String, HttpGetHandler> httpGets = new LinkedHashMap<>();
  private int maxConcurrentStreams = DEFAULTS.maxConcurrentStreams();
  private long permitKeepAliveTimeNanos = DEFAULTS.timers().permitKeepAliveTimeNanos();
  private boolean permitKeepAliveWithoutCalls = DEFAULTS.timers().permitKeepAliveWithoutCalls();
  private long maxConnectionIdleNanos = DEFAULTS.timers().maxConnectionIdleNanos();
  private long maxConnectionAgeNanos = DEFAULTS.timers().maxConnectionAgeNanos();
  private long maxConnectionAgeGraceNanos = DEFAULTS.timers().maxConnectionAgeGraceNanos();
  private long handshakeTimeoutNanos = DEFAULTS.timers().handshakeTimeoutNanos();
  private long httpHeaderReadTimeoutNanos = DEFAULTS.timers().httpHeaderReadTimeoutNanos();
  private long httpBodyIdleTimeoutNanos = DEFAULTS.timers().httpBodyIdleTimeoutNanos();
  private Duration drainGrace = Duration.ofMillis(DEFAULTS.drainGraceMillis());
  private boolean plaintextAlongsideTls = DEFAULTS.plaintextAlongsideTls();
  /** What HTTP/3 is served with, once {@link #http3()} turned it on. */
  private Http3Options http3Options = Http3Options.DEFAULTS;
  private long maxTotalPendingOutboundBytes = DEFAULTS.maxTotalPendingOutboundBytes();

  /** Use {@link TripleServer#builder()}. */
  public TripleServerBuilder() {
    super(DEFAULTS.limits(), DEFAULTS.keepAlive(), "triple-service");
  }

  @Override
  protected TripleServerBuilder self() {
    return this;
  }

  @Override
  public TripleServerBuilder port(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    this.port = port;
    return this;
  }

  @Override
  public TripleServerBuilder host(String host) {
    this.host = Objects.requireNonNull(host, "host");
    return this;
  }

  @Override
  public <T> TripleServerBuilder addService(Class<T> serviceInterface, T implementation) {
    Objects.requireNonNull(serviceInterface, "serviceInterface");
    TripleService annotation = serviceInterface.getAnnotation(TripleService.class);
    return addService(serviceInterface, implementation,
        annotation == null ? "" : annotation.version(), annotation == null ? "" : annotation.group());
  }

  @Override
  public <T> TripleServerBuilder addService(Class<T> serviceInterface, T implementation, String version, String group) {
    Objects.requireNonNull(serviceInterface, "serviceInterface");
    Objects.requireNonNull(implementation, "implementation");
    ServiceExports.checkName(Objects.requireNonNull(version, "version"), "version");
    ServiceExports.checkName(Objects.requireNonNull(group, "group"), "group");
    // Made now too, so that a service that cannot be served fails here, where it is named.
    List<ServerMethodDefinition<?, ?>> added =
        ServiceAdapters.definitions(serviceInterface, implementation, allowList());
    TripleService annotation = serviceInterface.getAnnotation(TripleService.class);
    if (annotation != null && annotation.protoFile() != void.class && !added.isEmpty()) {
      protoFiles.putIfAbsent(added.get(0).method().serviceName(), annotation.protoFile());
    }
    if (!added.isEmpty()) {
      interfaces.putIfAbsent(added.get(0).method().serviceName(), serviceInterface);
    }
    definitions.add(allowList -> ServiceAdapters.definitions(serviceInterface, implementation, allowList).stream()
        .<ServerMethodDefinition<?, ?>>map(definition -> definition.exportedAs(version, group))
        .toList());
    for (ServerMethodDefinition<?, ?> definition : added) {
      // A registry lists the interface's methods; generic calls reach them through $invoke, as with Dubbo.
      if (!GenericInvocation.isGeneric(definition.method().methodName())) {
        describe(definition.method(), version, group);
      }
    }
    return this;
  }

  private void describe(MethodDescriptor<?, ?> method, String version, String group) {
    String key = ServiceExports.key(method.serviceName(), version, group);
    ServerInfo.Service known = services.get(key);
    List<String> methods = new ArrayList<>(known == null ? List.of() : known.methods());
    methods.add(method.methodName());
    // Plain Java services advertise the serializations they read, their own first (a Dubbo provider's
    // prefer.serialization); protobuf ones their codec. A service with both kinds advertises the former.
    String served = WrappedMethod.servedSerializations(method.requestCodec());
    String serialization = served != null ? served
        : known != null ? known.serialization() : method.requestCodec().subtype();
    services.put(key, new ServerInfo.Service(method.serviceName(), methods, serialization, version, group));
  }

  @Override
  public <Q, R> TripleServerBuilder addMethod(MethodDescriptor<Q, R> method, ServerCallHandler<Q, R> handler) {
    ServerMethodDefinition<Q, R> definition = new ServerMethodDefinition<>(
        Objects.requireNonNull(method, "method"), Objects.requireNonNull(handler, "handler"));
    definitions.add(allowList -> List.of(definition));
    describe(method, "", "");
    return this;
  }

  @Override
  public TripleServerBuilder registration(ServerRegistration registration) {
    registrations.add(Objects.requireNonNull(registration, "registration"));
    return this;
  }

  @Override
  public TripleServerBuilder intercept(ServerInterceptor... interceptors) {
    for (ServerInterceptor interceptor : interceptors) {
      this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
    }
    return this;
  }

  @Override
  public TripleServerBuilder cors(CorsPolicy policy) {
    this.cors = Objects.requireNonNull(policy, "policy");
    return this;
  }

  @Override
  public TripleServerBuilder httpGet(String path, HttpGetHandler handler) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(handler, "handler");
    checkGetPath(path);
    if (httpGets.putIfAbsent(path, handler) != null) {
      throw new IllegalArgumentException("Two HTTP GET handlers for " + path);
    }
    return this;
  }

  /** Serves {@code handler} at {@code /}, which {@link #httpGet} keeps from other servers: the admin page. */
  TripleServerBuilder rootPage(HttpGetHandler handler) {
    httpGets.put("/", Objects.requireNonNull(handler, "handler"));
    return this;
  }

  /** A path a GET endpoint may have: absolute, not just /, nothing that would need percent-encoding. */
  private static void checkGetPath(String path) {
    if (path.length() < 2 || path.charAt(0) != '/') {
      throw new IllegalArgumentException("An HTTP GET path is absolute and not just /, such as /metrics: " + path);
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      // The request target's path characters (RFC 3986), the query and fragment delimiters excepted.
      if (c <= ' ' || c >= 0x7f || c == '?' || c == '#' || c == '"' || c == '<' || c == '>' || c == '\\'
          || c == '^' || c == '`' || c == '{' || c == '|' || c == '}') {
        throw new IllegalArgumentException("An HTTP GET path has no query, fragment, space or character that"
            + " would need percent-encoding: " + path);
      }
    }
  }

  @Override
  public TripleServerBuilder openApi(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.endsWith(".json") || path.length() <= ".json".length() + 1) {
      throw new IllegalArgumentException("The OpenAPI document's path ends in .json, such as /openapi.json: " + path);
    }
    checkGetPath(path);
    this.openApiPath = path;
    return this;
  }

  @Override
  public TripleServerBuilder admin(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("admin port out of range 0-65535: " + port);
    }
    this.adminPort = port;
    this.adminAddress = null;
    this.adminPolicy = null;
    return this;
  }

  @Override
  public TripleServerBuilder admin(InetSocketAddress address, AccessPolicy policy) {
    Objects.requireNonNull(address, "address");
    this.adminPolicy = Objects.requireNonNull(policy, "policy");
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("admin address unresolved: " + address);
    }
    this.adminAddress = address;
    this.adminPort = -1;
    return this;
  }

  @Override
  public TripleServerBuilder adminView(AdminView view) {
    Objects.requireNonNull(view, "view");
    AdminEndpoint.checkView(view, adminViews);
    adminViews.add(view);
    return this;
  }

  @Override
  public TripleServerBuilder openApiDocs(String path) {
    Objects.requireNonNull(path, "path");
    checkGetPath(path);
    if (path.endsWith("/")) {
      throw new IllegalArgumentException("The docs page's path does not end in /, such as /docs: " + path);
    }
    this.openApiDocsPath = path;
    return this;
  }

  @Override
  public TripleServerBuilder accessPolicy(AccessPolicy policy) {
    this.accessPolicy = Objects.requireNonNull(policy, "policy");
    return this;
  }

  @Override
  public TripleServerBuilder maxConcurrentCalls(String serviceOrMethod, int limit) {
    ServiceExports.checkServiceOrMethod(serviceOrMethod);
    if (limit <= 0) {
      throw new IllegalArgumentException("maxConcurrentCalls of " + serviceOrMethod + " must be positive: " + limit);
    }
    concurrencyLimits.put(serviceOrMethod, limit);
    return this;
  }

  @Override
  public TripleServerBuilder adaptiveConcurrencyLimit(AdaptiveConcurrencyLimit limit) {
    this.adaptiveLimit = Objects.requireNonNull(limit, "limit");
    return this;
  }

  @Override
  public TripleServer.Builder directExecutor() {
    return executor(DIRECT);
  }

  @Override
  public TripleServerBuilder maxConcurrentStreams(int streams) {
    this.maxConcurrentStreams = streams;
    return this;
  }

  @Override
  public TripleServerBuilder drainGrace(Duration grace) {
    this.drainGrace = Objects.requireNonNull(grace, "grace");
    return this;
  }

  @Override
  public TripleServer.Builder tls(TlsConfig tls) {
    if (Objects.requireNonNull(tls, "tls").sslContext() == null && tls.certificateChain() == null) {
      throw new IllegalArgumentException("A server's TlsConfig needs keyCertChain(...) or sslContext(...)");
    }
    return super.tls(tls);
  }

  @Override
  public TripleServerBuilder maxTotalPendingOutboundBytes(long bytes) {
    this.maxTotalPendingOutboundBytes = Http2Limits.checkLimit(bytes, "maxTotalPendingOutboundBytes");
    return this;
  }

  @Override
  public TripleServerBuilder plaintextAlongsideTls(boolean enabled) {
    this.plaintextAlongsideTls = enabled;
    return this;
  }

  @Override
  public TripleServerBuilder http3(int udpPort) {
    this.http3Options = new Http3Options(udpPort, http3Options.altSvcMaxAgeSeconds());
    http3();
    return this;
  }

  @Override
  public TripleServerBuilder altSvcMaxAge(Duration maxAge) {
    Objects.requireNonNull(maxAge, "maxAge");
    if (maxAge.isNegative()) {
      throw new IllegalArgumentException("altSvcMaxAge must not be negative: " + maxAge);
    }
    this.http3Options = new Http3Options(http3Options.port(), maxAge.toSeconds());
    return this;
  }

  @Override
  public TripleServerBuilder permitKeepAliveTime(Duration time) {
    this.permitKeepAliveTimeNanos = KeepAlive.nanos(Objects.requireNonNull(time, "time"), "permitKeepAliveTime", true);
    return this;
  }

  @Override
  public TripleServerBuilder permitKeepAliveWithoutCalls(boolean permitted) {
    this.permitKeepAliveWithoutCalls = permitted;
    return this;
  }

  @Override
  public TripleServerBuilder maxConnectionIdle(Duration idle) {
    this.maxConnectionIdleNanos = KeepAlive.nanos(Objects.requireNonNull(idle, "idle"), "maxConnectionIdle", false);
    return this;
  }

  @Override
  public TripleServerBuilder maxConnectionAge(Duration age) {
    this.maxConnectionAgeNanos = KeepAlive.nanos(Objects.requireNonNull(age, "age"), "maxConnectionAge", false);
    return this;
  }

  @Override
  public TripleServerBuilder maxConnectionAgeGrace(Duration grace) {
    this.maxConnectionAgeGraceNanos =
        KeepAlive.nanos(Objects.requireNonNull(grace, "grace"), "maxConnectionAgeGrace", true);
    return this;
  }

  @Override
  public TripleServerBuilder handshakeTimeout(Duration timeout) {
    this.handshakeTimeoutNanos = KeepAlive.nanos(Objects.requireNonNull(timeout, "timeout"), "handshakeTimeout", false);
    return this;
  }

  @Override
  public TripleServerBuilder httpReadTimeouts(Duration headers, Duration bodyIdle) {
    this.httpHeaderReadTimeoutNanos =
        KeepAlive.nanos(Objects.requireNonNull(headers, "headers"), "httpHeaderReadTimeout", false);
    this.httpBodyIdleTimeoutNanos =
        KeepAlive.nanos(Objects.requireNonNull(bodyIdle, "bodyIdle"), "httpBodyIdleTimeout", false);
    return this;
  }

  /**
   * The transport's options from what was set.
   *
   * @throws IllegalArgumentException if a value is out of range
   */
  public ServerTransportOptions transportOptions() {
    return new ServerTransportOptions(
        limits(),
        maxConcurrentStreams,
        keepAlive(DEFAULTS.keepAlive().withoutCalls()),
        new ServerConnectionTimers(permitKeepAliveTimeNanos, permitKeepAliveWithoutCalls, maxConnectionIdleNanos,
            maxConnectionAgeNanos, maxConnectionAgeGraceNanos, handshakeTimeoutNanos, httpHeaderReadTimeoutNanos,
            httpBodyIdleTimeoutNanos),
        drainGrace.toMillis(),
        ioThreads(),
        transport(),
        tls(),
        plaintextAlongsideTls,
        cors,
        maxTotalPendingOutboundBytes,
        http3Enabled() ? http3Options : null);
  }

  @Override
  public TripleServer build() {
    TlsConfig tls = tls();
    if (plaintextAlongsideTls && tls == null) {
      throw new IllegalStateException("plaintextAlongsideTls(true) needs tls(...): without TLS the server"
          + " serves only cleartext anyway");
    }
    if (plaintextAlongsideTls && tls.clientAuth() == TlsConfig.ClientAuth.REQUIRE) {
      throw new IllegalStateException("plaintextAlongsideTls(true) contradicts ClientAuth.REQUIRE: cleartext"
          + " clients present no certificate, so mutual TLS could be bypassed on the same port;"
          + " serve cleartext on another port, or use ClientAuth.OPTIONAL");
    }
    if (http3Enabled()) {
      checkHttp3(tls);
    }
    if (openApiDocsPath != null && openApiPath == null) {
      throw new IllegalStateException("openApiDocs(\"" + openApiDocsPath + "\") shows the OpenAPI document:"
          + " serve it too, with openApi(\"/openapi.json\")");
    }
    // The server keeps the allow list as it is now: what this builder is told later is not its concern.
    DeserializationAllowList allowList = allowListCopy();
    List<ServerMethodDefinition<?, ?>> built = new ArrayList<>();
    definitions.forEach(source -> built.addAll(source.apply(allowList)));
    TripleServerImpl server = new TripleServerImpl(new InetSocketAddress(host, port), transportOptions(), built,
        interceptors, accessPolicy, Map.copyOf(concurrencyLimits), adaptiveLimit, observers(), executor(),
        List.copyOf(services.values()), registrations, Map.copyOf(protoFiles), Map.copyOf(interfaces),
        new LinkedHashMap<>(httpGets), openApiPath, openApiDocsPath);
    if (adminPort >= 0) {
      server.adminAt(new InetSocketAddress("127.0.0.1", adminPort), AdminGuard.OPEN, adminViews);
    } else if (adminAddress != null) {
      server.adminAt(adminAddress, new AdminGuard(adminPolicy), adminViews);
    } else if (!adminViews.isEmpty()) {
      throw new IllegalStateException("adminView(...) needs an admin endpoint: see admin(port)");
    }
    return server;
  }

  /** HTTP/3 needs TLS given as files (QUIC's TLS reads the key itself) and its plug-in. */
  private static void checkHttp3(TlsConfig tls) {
    if (tls == null || tls.certificateChain() == null) {
      throw new IllegalStateException("http3() needs tls(...) with keyCertChain(...): QUIC is always TLS 1.3,"
          + " and its TLS reads the certificate and key from PEM files (an SSLContext cannot be handed over)");
    }
    if (Http3ServerTransportFactory.find() == null) {
      throw new IllegalStateException("http3() needs " + Http3ServerTransportFactory.ARTIFACT
          + " on the class path: add it as a dependency (it brings Netty's QUIC codec and its native library)");
    }
  }
}
