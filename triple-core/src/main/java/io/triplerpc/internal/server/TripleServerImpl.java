package io.triplerpc.internal.server;

import io.triplerpc.AccessPolicy;
import io.triplerpc.AdaptiveConcurrencyLimit;
import io.triplerpc.HealthStatusManager;
import io.triplerpc.HttpGetHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.TripleServer;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.WorkerPool;
import io.triplerpc.internal.health.HealthService;
import io.triplerpc.internal.health.HealthServiceImpl;
import io.triplerpc.internal.observe.CallObservers;
import io.triplerpc.internal.reflection.DescriptorIndex;
import io.triplerpc.internal.rest.RestRoutes;
import io.triplerpc.internal.rest.SwaggerUiPage;
import io.triplerpc.internal.reflection.ReflectionServiceImpl;
import io.triplerpc.internal.reflection.ReflectionV1AlphaService;
import io.triplerpc.internal.reflection.ReflectionV1Service;
import io.triplerpc.internal.stream.HttpEndpoint;
import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.internal.stream.Http3ServerTransportFactory;
import io.triplerpc.internal.stream.ServerTransportFactory;
import io.triplerpc.internal.stream.TcpAndHttp3Transport;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.spi.ServerRegistration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link TripleServer}: the services, health and reflection over one transport. */
final class TripleServerImpl extends TripleServer {

  private static final Logger log = LoggerFactory.getLogger(TripleServer.class);

  private static final String HEALTH_SERVICE = "grpc.health.v1.Health";
  private static final String REFLECTION_V1 = "grpc.reflection.v1.ServerReflection";
  private static final String REFLECTION_V1ALPHA = "grpc.reflection.v1alpha.ServerReflection";

  private final InetSocketAddress bindAddress;
  private final ServerTransportOptions options;
  private final List<ServerMethodDefinition<?, ?>> definitions;
  private final RestRoutes restRoutes;
  private final List<ServerInterceptor> interceptors;
  private final AccessPolicy accessPolicy;
  /** Calls each method may run at once, by service or method name. */
  private final Map<String, Integer> concurrencyLimits;
  /** The adaptive limit of unary calls, or null. */
  private final AdaptiveConcurrencyLimit adaptiveLimit;
  /** Who sees each call, or null. */
  private final CallObservers observers;
  private final Executor executor;
  private final WorkerPool ownedExecutor;
  private final HealthServiceImpl health = new HealthServiceImpl();
  private final List<ServerInfo.Service> services;
  private final List<ServerRegistration> registrations;
  /** Plain HTTP GET handlers by path. */
  private final Map<String, HttpGetHandler> httpGets;
  /** HTTP GET handlers of every path under a folder, by the folder's path (ending in /). */
  private final Map<String, HttpGetHandler> httpGetFolders = new LinkedHashMap<>();
  /** Of a folder, the paths it has something at (the docs page's files); REST routes serve the others. */
  private final Map<String, java.util.function.Predicate<String>> folderOwners = new LinkedHashMap<>();
  /** The registrations whose {@code started} returned, in order: only they are told of the shutdown. */
  private final List<ServerRegistration> announced = new CopyOnWriteArrayList<>();
  private final AtomicBoolean withdrawn = new AtomicBoolean();
  /** Whether the server is out of rotation ({@link #offline}); changed under {@link #rotation}. */
  private volatile boolean offline;
  private final Object rotation = new Object();
  /** Where the admin endpoint is served, or null for nowhere; set by the builder. */
  private InetSocketAddress adminAddress;
  private volatile AdminEndpoint admin;
  /** The services health reports on, beside the server's own {@code ""}. */
  private final List<String> healthNames;
  private volatile ServerTransport transport;
  private volatile ServerInfo info;

  /**
   * @param executor where services run, or null for a pool of the server's own
   * @param httpGets plain HTTP GET handlers by path, none of them a method's
   * @param openApiPath where the OpenAPI document is served, or null
   * @param openApiDocsPath where the docs page is served, or null; needs {@code openApiPath}
   */
  TripleServerImpl(InetSocketAddress bindAddress, ServerTransportOptions options,
      List<ServerMethodDefinition<?, ?>> definitions, List<ServerInterceptor> interceptors, AccessPolicy accessPolicy,
      Map<String, Integer> concurrencyLimits, AdaptiveConcurrencyLimit adaptiveLimit, CallObservers observers,
      Executor executor,
      List<ServerInfo.Service> services,
      List<ServerRegistration> registrations,
      Map<String, Class<?>> protoFiles,
      Map<String, Class<?>> interfaces,
      Map<String, HttpGetHandler> httpGets,
      String openApiPath,
      String openApiDocsPath) {
    this.bindAddress = bindAddress;
    this.options = options;
    List<ServerMethodDefinition<?, ?>> all = new ArrayList<>(definitions);
    Set<String> served = new LinkedHashSet<>();
    all.forEach(definition -> served.add(definition.method().serviceName()));
    if (!served.contains(HEALTH_SERVICE)) {
      all.addAll(ServiceAdapters.definitions(HealthService.class, health));
    }
    if (!served.contains(REFLECTION_V1) && !served.contains(REFLECTION_V1ALPHA)) {
      List<ServerMethodDefinition<?, ?>> described = all;
      // One interface served in several exports is one service to reflection.
      ReflectionServiceImpl reflection = new ReflectionServiceImpl(() -> DescriptorIndex.of(described.stream()
          .filter(definition -> isFirstExport(definition, described))
          .map(ServerMethodDefinition::method).collect(Collectors.toList()), protoFiles));
      all.addAll(ServiceAdapters.definitions(ReflectionV1Service.class, reflection));
      all.addAll(ServiceAdapters.definitions(ReflectionV1AlphaService.class, reflection.v1alpha()));
    }
    this.definitions = List.copyOf(all);
    // Read as the server is built, so that a malformed google.api.http rule fails build(), naming it.
    this.restRoutes = RestRoutes.of(definitions.stream().filter(definition -> isFirstExport(definition, definitions))
        .map(ServerMethodDefinition::method).collect(Collectors.toList()), protoFiles, interfaces);
    health.setStatus("", HealthStatusManager.ServingStatus.SERVING);
    served.forEach(service -> health.setStatus(service, HealthStatusManager.ServingStatus.SERVING));
    this.healthNames = List.copyOf(served);
    this.interceptors = List.copyOf(interceptors);
    this.accessPolicy = accessPolicy;
    if (accessPolicy != null) {
      checkNamesServed(accessPolicy.names(), "The access policy", this.definitions);
    }
    checkNamesServed(concurrencyLimits.keySet(), "maxConcurrentCalls", this.definitions);
    for (ServerMethodDefinition<?, ?> definition : this.definitions) {
      if (httpGets.containsKey(definition.method().path().toString())) {
        throw new IllegalArgumentException("httpGet(" + definition.method().path() + ") would hide the method "
            + definition.method().fullMethodName() + " from web clients");
      }
    }
    if (openApiPath != null) {
      addOpenApi(httpGets, openApiPath, restRoutes);
    }
    if (openApiDocsPath != null) {
      addOpenApiDocs(httpGets, openApiDocsPath, openApiPath, restRoutes);
    }
    this.httpGets = Map.copyOf(httpGets);
    this.concurrencyLimits = concurrencyLimits;
    this.adaptiveLimit = adaptiveLimit;
    this.observers = observers;
    this.services = List.copyOf(services);
    this.registrations = List.copyOf(registrations);
    this.ownedExecutor = executor == null ? WorkerPool.withDefaults("triple-service") : null;
    this.executor = executor != null ? executor : ownedExecutor;
  }

  /**
   * The OpenAPI documents as GET endpoints: every route's at {@code path}, each service's at
   * {@code /openapi/<service>.json} beside it. Made once, here: the routes do not change.
   */
  private static void addOpenApi(Map<String, HttpGetHandler> httpGets, String path, RestRoutes routes) {
    String json = "application/json";
    byte[] whole = routes.openApi("Triple REST", null);
    httpGets.put(path, request -> HttpGetHandler.Response.ok(json, whole));
    String folder = path.substring(0, path.length() - ".json".length()) + "/";
    for (String service : routes.services()) {
      byte[] one = routes.openApi(service, service);
      httpGets.put(folder + service + ".json", request -> HttpGetHandler.Response.ok(json, one));
    }
  }

  /**
   * The docs page as GET endpoints: the page at {@code path}, and the folder under it that serves the
   * webjar's files, which must hide no other endpoint. Fails, naming the webjar, if it is missing.
   */
  private void addOpenApiDocs(Map<String, HttpGetHandler> httpGets, String path, String documentPath,
      RestRoutes routes) {
    String folder = path + "/";
    for (String other : httpGets.keySet()) {
      if (other.equals(path) || other.startsWith(folder)) {
        throw new IllegalArgumentException("openApiDocs(\"" + path + "\") would hide the HTTP GET endpoint "
            + other);
      }
    }
    Map<String, String> documents = new LinkedHashMap<>();
    documents.put(documentPath, "All services");
    String documentFolder = documentPath.substring(0, documentPath.length() - ".json".length()) + "/";
    routes.services().forEach(service -> documents.put(documentFolder + service + ".json", service));
    SwaggerUiPage page = SwaggerUiPage.load(TripleServerImpl.class.getClassLoader(), path, documents);
    httpGets.put(path, page.page());
    httpGetFolders.put(folder, page.folder());
    folderOwners.put(folder, page::owns);
  }

  /** Whether no definition before {@code definition} serves its method. */
  private static boolean isFirstExport(ServerMethodDefinition<?, ?> definition, List<ServerMethodDefinition<?, ?>> all) {
    String name = definition.method().fullMethodName();
    for (ServerMethodDefinition<?, ?> other : all) {
      if (other.method().fullMethodName().equals(name)) {
        return other == definition;
      }
    }
    return false;
  }

  /** A setting naming a service or method the server does not serve has a typo that would go unnoticed. */
  private static void checkNamesServed(
      Set<String> names, String setting, List<ServerMethodDefinition<?, ?>> definitions) {
    Set<String> served = new HashSet<>();
    for (ServerMethodDefinition<?, ?> definition : definitions) {
      served.add(definition.method().serviceName());
      served.add(definition.method().fullMethodName());
    }
    for (String name : names) {
      if (!served.contains(name)) {
        throw new IllegalArgumentException(setting + " names " + name + ", which this server does not serve");
      }
    }
  }

  @Override
  public synchronized TripleServer start() {
    if (transport != null) {
      throw new IllegalStateException("Server already started");
    }
    ServerTransportFactory factory = ServiceLoader.load(ServerTransportFactory.class, TripleServerImpl.class.getClassLoader())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(
            "No Triple server transport on the class path: add io.triplerpc:triple-transport-netty"));
    // An HTTP GET handler may be slow (a large scrape): never on an event loop, not even for a direct executor.
    Executor endpointExecutor = executor == TripleServerBuilder.DIRECT ? ForkJoinPool.commonPool() : executor;
    List<HttpEndpoint> endpoints = new ArrayList<>();
    httpGets.forEach((path, handler) -> endpoints.add(new HttpEndpoint(path, handler, endpointExecutor)));
    // After the exact paths: a folder hides none of them (addOpenApiDocs checked).
    httpGetFolders.forEach((folder, handler) -> endpoints.add(HttpEndpoint.folder(folder, handler, endpointExecutor,
        folderOwners.getOrDefault(folder, target -> true))));
    ServerDispatcher dispatcher = new ServerDispatcher(definitions, interceptors, accessPolicy, concurrencyLimits,
        adaptiveLimit, observers, executor, options.limits().maxInboundMessageSize(), endpoints, restRoutes);
    try {
      transport = factory.start(bindAddress, options, dispatcher);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serve on " + bindAddress + ": " + e.getMessage(), e);
    }
    if (options.http3() != null) {
      transport = startHttp3(transport, dispatcher);
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
    if (adminAddress != null) {
      try {
        admin = AdminEndpoint.start(this, adminAddress, info);
      } catch (RuntimeException e) {
        shutdownNow();
        throw e;
      }
    }
    return this;
  }

  /** Serves the admin endpoint at {@code address} once started. Before {@link #start()}: the builder's. */
  void adminAt(InetSocketAddress address) {
    this.adminAddress = address;
  }

  @Override
  public int adminPort() {
    AdminEndpoint endpoint = admin;
    if (endpoint == null) {
      throw new IllegalStateException(adminAddress == null ? "No admin endpoint: see Builder.admin" : "Server not started");
    }
    return endpoint.port();
  }

  /** Whether a shutdown has begun. */
  boolean isShuttingDown() {
    return withdrawn.get();
  }

  /**
   * Binds HTTP/3's UDP port beside the TCP transport just started (by default the port of the same number)
   * and serves both as one; if it cannot be bound, the TCP port is released again.
   */
  private ServerTransport startHttp3(ServerTransport tcp, ServerDispatcher dispatcher) {
    Http3ServerTransportFactory http3 = Http3ServerTransportFactory.find();
    InetSocketAddress udp = new InetSocketAddress(bindAddress.getAddress(),
        options.http3().udpPort(tcp.localAddress().getPort()));
    try {
      if (http3 == null) {
        throw new IOException("no HTTP/3 transport: add " + Http3ServerTransportFactory.ARTIFACT);
      }
      return new TcpAndHttp3Transport(tcp, http3.start(udp, tcp, options, dispatcher));
    } catch (IOException | RuntimeException e) {
      tcp.shutdownNow();
      throw new UncheckedIOException("Cannot serve HTTP/3 on UDP " + udp + ": " + e.getMessage(),
          e instanceof IOException io ? io : new IOException(e));
    }
  }

  @Override
  public void offline() {
    synchronized (rotation) {
      ServerInfo started = info;
      if (started == null || offline || withdrawn.get()) {
        return;
      }
      offline = true;
      for (ServerRegistration registration : announced) {
        try {
          registration.offline(started);
        } catch (RuntimeException e) {
          log.warn("Could not withdraw {} from a registry: {}", started.localAddress(), e.toString());
        }
      }
      setAllHealth(HealthStatusManager.ServingStatus.NOT_SERVING);
      log.info("{} is offline: withdrawn from its registries, health NOT_SERVING", started.localAddress());
    }
  }

  @Override
  public void online() {
    synchronized (rotation) {
      ServerInfo started = info;
      if (!offline || withdrawn.get()) {
        return;
      }
      offline = false;
      setAllHealth(HealthStatusManager.ServingStatus.SERVING);
      for (ServerRegistration registration : announced) {
        try {
          registration.online(started);
        } catch (RuntimeException e) {
          log.warn("Could not announce {} in a registry again: {}", started.localAddress(), e.toString());
        }
      }
      log.info("{} is online again", started.localAddress());
    }
  }

  @Override
  public boolean isOffline() {
    return offline;
  }

  private void setAllHealth(HealthStatusManager.ServingStatus status) {
    health.setStatus("", status);
    healthNames.forEach(service -> health.setStatus(service, status));
  }

  private void closeAdmin() {
    AdminEndpoint endpoint = admin;
    if (endpoint != null) {
      endpoint.shutdown();
    }
  }

  /** Withdraws the server from its registries, once, before its calls drain. */
  private void withdraw() {
    ServerInfo started = info;
    synchronized (rotation) {
      if (started == null || !withdrawn.compareAndSet(false, true)) {
        return;
      }
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

  /** The transport, once started; null before. See {@link ServerTransports#of}. */
  ServerTransport transport() {
    return transport;
  }

  @Override
  public HealthStatusManager health() {
    return health;
  }

  @Override
  public int port() {
    return started().localAddress().getPort();
  }

  @Override
  public InetSocketAddress localAddress() {
    return started().localAddress();
  }

  @Override
  public int openConnections() {
    ServerTransport t = transport;
    return t == null ? 0 : t.openConnections();
  }

  @Override
  public WriteStats writeStats() {
    ServerTransport t = transport;
    return t == null ? new WriteStats(0, 0) : t.writeStats();
  }

  @Override
  public void shutdown() {
    withdraw();
    closeAdmin();
    health.enterTerminalState();
    ServerTransport t = transport;
    if (t != null) {
      t.shutdown();
    }
  }

  @Override
  public void shutdownNow() {
    withdraw();
    closeAdmin();
    health.enterTerminalState();
    ServerTransport t = transport;
    if (t != null) {
      t.shutdownNow();
    }
  }

  @Override
  public boolean isTerminated() {
    ServerTransport t = transport;
    return t != null && t.terminationFuture().isDone();
  }

  @Override
  public void awaitTermination() throws InterruptedException {
    try {
      started().terminationFuture().get();
    } catch (ExecutionException e) {
      // Termination failures are logged by the transport; the server is down either way.
    }
  }

  @Override
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    try {
      started().terminationFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
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
}
