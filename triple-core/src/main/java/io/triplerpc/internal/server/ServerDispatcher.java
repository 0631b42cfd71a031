package io.triplerpc.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;
import io.triplerpc.AccessPolicy;
import io.triplerpc.AdaptiveConcurrencyLimit;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.PeerInfo;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.internal.observe.CallObservers;
import io.triplerpc.internal.observe.ObservedCallImpl;
import io.triplerpc.internal.descriptor.GenericInvocation;
import io.triplerpc.internal.rest.RestCodecs;
import io.triplerpc.internal.rest.RestRequest;
import io.triplerpc.internal.rest.RestRoutes;
import io.triplerpc.internal.stream.HttpEndpoint;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.wire.ServiceExports;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.serialization.MessageCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Routes each new stream to its method by {@code :path}, in a map built once at start (keyed by the
 * same {@link AsciiString} type the HTTP/2 decoder produces, so a lookup builds no string), then to the
 * service export its {@code tri-service-version} and {@code tri-service-group} headers name, with the
 * access its callers must pass, resolved from the server's {@link AccessPolicy} at the same time.
 */
public final class ServerDispatcher implements ServerTransportListener {

  private static final AsciiString GET = AsciiString.cached("GET");
  private static final AsciiString POST = AsciiString.cached("POST");

  private final Map<AsciiString, Route> routes;
  /** What each method's callers must pass, by path; methods anyone may call are absent. */
  private final Map<AsciiString, MethodAccess> access;
  /** The adaptive limit of unary calls in flight, or null. */
  private final VegasLimiter adaptive;
  /** Who sees each call, or null. */
  private final CallObservers observers;
  private final Executor executor;
  private final int maxInboundMessageSize;
  /** The plain HTTP endpoints, each of its own path; usually none, at most a few. */
  private final HttpEndpoint[] endpoints;
  private final RestRoutes restRoutes;
  /** Whether calls (and bytes) are counted ({@link #countCalls()}); set before the transport starts. */
  private boolean counting;

  /**
   * @param policy who may call what, or null to let anyone call anything
   */
  public ServerDispatcher(
      List<ServerMethodDefinition<?, ?>> definitions,
      List<ServerInterceptor> interceptors,
      AccessPolicy policy,
      Executor executor,
      int maxInboundMessageSize) {
    this(definitions, interceptors, policy, Map.of(), null, null, executor, maxInboundMessageSize, List.of(),
        RestRoutes.none());
  }

  /**
   * @param policy who may call what, or null to let anyone call anything
   * @param concurrencyLimits calls each method may run at once, by service (each of its methods) or method
   * @param adaptiveLimit the adaptive limit of unary calls in flight, or null
   * @param observers who sees each call, or null
   * @param endpoints the plain HTTP endpoints served beside the calls
   * @param restRoutes the REST bindings of the methods
   */
  public ServerDispatcher(
      List<ServerMethodDefinition<?, ?>> definitions,
      List<ServerInterceptor> interceptors,
      AccessPolicy policy,
      Map<String, Integer> concurrencyLimits,
      AdaptiveConcurrencyLimit adaptiveLimit,
      CallObservers observers,
      Executor executor,
      int maxInboundMessageSize,
      List<HttpEndpoint> endpoints,
      RestRoutes restRoutes) {
    Map<AsciiString, Map<ExportKey, Served>> byPath = new LinkedHashMap<>();
    Map<AsciiString, MethodAccess> accessByPath = new HashMap<>();
    Map<String, List<MethodDescriptor<?, ?>>> genericTargets = new HashMap<>();
    for (ServerMethodDefinition<?, ?> definition : definitions) {
      if (!GenericInvocation.isGeneric(definition.method().methodName())) {
        genericTargets.computeIfAbsent(definition.method().serviceName(), s -> new ArrayList<>()).add(definition.method());
      }
    }
    for (ServerMethodDefinition<?, ?> definition : definitions) {
      AsciiString path = AsciiString.of(definition.method().path());
      Map<ExportKey, Served> exports = byPath.computeIfAbsent(path, p -> new LinkedHashMap<>());
      ExportKey key = new ExportKey(definition.version(), definition.group());
      if (exports.put(key, new Served(intercept(definition, interceptors))) != null) {
        throw new IllegalArgumentException("Two services serve " + path + " with "
            + ServiceExports.describe(key.version, key.group));
      }
      MethodAccess methodAccess = GenericInvocation.isGeneric(definition.method().methodName())
          ? MethodAccess.ofGeneric(policy, definition.method(),
              genericTargets.getOrDefault(definition.method().serviceName(), List.of()))
          : MethodAccess.of(policy, definition.method());
      if (methodAccess != null) {
        accessByPath.put(path, methodAccess);
      }
    }
    Map<AsciiString, Route> map = new HashMap<>();
    byPath.forEach((path, exports) -> {
      MethodDescriptor<?, ?> method = exports.values().iterator().next().definition.method();
      Integer limit = concurrencyLimits.get(method.fullMethodName());
      if (limit == null) {
        limit = concurrencyLimits.get(method.serviceName());
      }
      map.put(path, new Route(exports, limit == null ? null : new CallLimit(method.fullMethodName(), limit),
          new MethodCounters(method)));
    });
    this.routes = map;
    this.access = accessByPath;
    this.adaptive = adaptiveLimit == null ? null : new VegasLimiter(adaptiveLimit);
    this.observers = observers;
    this.executor = executor;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.endpoints = endpoints.toArray(new HttpEndpoint[0]);
    this.restRoutes = restRoutes;
  }

  /** An export's name: version and group, empty for none. */
  private record ExportKey(String version, String group) {}

  /** One method of one export: its handler chain, and the same with each codec a content type may name. */
  private static final class Served {
    final ServerMethodDefinition<?, ?> definition;
    /** With JSON or protobuf codecs, or null when the method's types have none. */
    final ServerMethodDefinition<?, ?> json;
    final ServerMethodDefinition<?, ?> proto;

    Served(ServerMethodDefinition<?, ?> definition) {
      this.definition = definition;
      this.json = withCodecsFor(definition, "json");
      this.proto = withCodecsFor(definition, "proto");
    }

    ServerMethodDefinition<?, ?> inCodec(String codec) {
      return "json".equals(codec) ? json : "proto".equals(codec) ? proto : null;
    }
  }

  /** How many calls of one method run now, against its fixed limit: every export of the method counts. */
  private static final class CallLimit extends java.util.concurrent.atomic.AtomicInteger implements Runnable {
    private static final long serialVersionUID = 1L;
    private final String method;
    private final int max;

    CallLimit(String method, int max) {
      this.method = method;
      this.max = max;
    }

    boolean tryAcquire() {
      for (int now = get(); now < max; now = get()) {
        if (compareAndSet(now, now + 1)) {
          return true;
        }
      }
      return false;
    }

    /** The call ended. */
    @Override
    public void run() {
      decrementAndGet();
    }

    Status refusal() {
      return Status.RESOURCE_EXHAUSTED.withDescription(
          method + " already runs " + max + " calls, its limit (maxConcurrentCalls)");
    }
  }

  /** The exports of one path: the one a call without version and group reaches, and each by name. */
  private static final class Route {
    final Served defaultExport;
    /** Null when the only export is the one without version and group. */
    final Map<ExportKey, Served> named;
    /** The method's concurrency limit, or null for none. */
    final CallLimit limit;
    /** The method's calls, every export's. */
    final MethodCounters counters;

    Route(Map<ExportKey, Served> exports, CallLimit limit, MethodCounters counters) {
      this.limit = limit;
      this.counters = counters;
      Served unnamed = exports.get(new ExportKey("", ""));
      this.defaultExport = unnamed != null ? unnamed : exports.values().iterator().next();
      this.named = unnamed != null && exports.size() == 1 ? null : Map.copyOf(exports);
    }

    /** The export {@code headers} name, or null if none is served. */
    Served select(Metadata headers) {
      String version = headers.get(ServiceExports.VERSION_HEADER);
      String group = headers.get(ServiceExports.GROUP_HEADER);
      boolean noVersion = version == null || version.isEmpty();
      boolean noGroup = group == null || group.isEmpty();
      if (noVersion && noGroup) {
        return defaultExport;
      }
      if (named == null) {
        return null;
      }
      return named.get(new ExportKey(noVersion ? "" : version, noGroup ? "" : group));
    }

    /** The exports served, for a message. */
    String exported() {
      if (named == null) {
        return ServiceExports.describe("", "");
      }
      List<String> names = new ArrayList<>();
      named.keySet().forEach(key -> names.add(ServiceExports.describe(key.version, key.group)));
      Collections.sort(names);
      return String.join("; ", names);
    }
  }

  private static <Q, R> ServerMethodDefinition<Q, R> intercept(
      ServerMethodDefinition<Q, R> definition, List<ServerInterceptor> interceptors) {
    ServerCallHandler<Q, R> handler = definition.handler();
    for (int i = interceptors.size() - 1; i >= 0; i--) {
      ServerInterceptor interceptor = interceptors.get(i);
      ServerCallHandler<Q, R> next = handler;
      handler = (call, headers) -> interceptor.interceptCall(call, headers, next);
    }
    return definition.with(definition.method(), handler);
  }

  /** The definition with the codecs of one REST call: its request built from the body, path and query. */
  @SuppressWarnings("unchecked")
  private static ServerMethodDefinition<Object, Object> withRestCodecs(ServerMethodDefinition<?, ?> served,
      RestRequest rest) {
    ServerMethodDefinition<Object, Object> definition = (ServerMethodDefinition<Object, Object>) served;
    MethodDescriptor<Object, Object> method = definition.method();
    return definition.with(MethodDescriptor.of(method.serviceName(), method.methodName(), method.type(),
        RestCodecs.request(rest), rest.binding().responseCodec(), method.isIdempotent()), definition.handler());
  }

  /** The definition with codecs of {@code subtype}, or null if its types have none. */
  private static <Q, R> ServerMethodDefinition<Q, R> withCodecsFor(
      ServerMethodDefinition<Q, R> definition, String subtype) {
    MethodDescriptor<Q, R> method = definition.method();
    MessageCodec<Q> requestCodec = method.requestCodec().withSubtype(subtype);
    MessageCodec<R> responseCodec = method.responseCodec().withSubtype(subtype);
    if (requestCodec == null || responseCodec == null) {
      return null;
    }
    MethodDescriptor<Q, R> swapped = MethodDescriptor.of(
        method.serviceName(), method.methodName(), method.type(), requestCodec, responseCodec, method.isIdempotent());
    return definition.with(swapped, definition.handler());
  }

  /**
   * Counts every call per method from now on (one add as a call starts, one as it ends), for
   * {@link #callCounts()}, and has the transport count each connection's bytes ({@link #countsTraffic()}): what
   * the admin endpoint shows. Before the transport starts.
   */
  public void countCalls() {
    counting = true;
  }

  @Override
  public boolean countsTraffic() {
    return counting;
  }

  /** Each served method's calls, by path; empty unless {@link #countCalls()}. Thread-safe. */
  List<MethodCounters.Snapshot> callCounts() {
    List<MethodCounters.Snapshot> counts = new ArrayList<>();
    if (counting) {
      routes.values().forEach(route -> counts.add(route.counters.snapshot()));
      counts.sort(java.util.Comparator.comparing(count -> count.method().fullMethodName()));
    }
    return counts;
  }

  @Override
  public ServerStreamListener streamCreated(ServerStream stream, InboundRequest request) {
    AsciiString path = AsciiString.of(request.path());
    Route route = routes.get(path);
    if (observers == null) {
      return route(stream, request, path, route);
    }
    // A served method's name is the one its descriptor holds: no string is built per call.
    String method = route != null ? route.defaultExport.definition.method().fullMethodName() : methodName(path);
    PeerInfo peer = stream.peer();
    ObservingServerStream observing = new ObservingServerStream(stream, ObservedCallImpl.server(observers, method,
        route != null, stream.protocol(), peer == null ? null : peer.remoteAddress()));
    return observing.observe(route(observing, request, path, route));
  }

  @Override
  public RestRoutes.Result restRoute(CharSequence httpMethod, CharSequence target,
      java.util.function.Function<String, CharSequence> header) {
    RestRoutes.Result result = restRoutes.route(httpMethod, target, header);
    if (result != null || restRoutes.isEmpty() || POST.contentEquals(httpMethod)) {
      return result;
    }
    // Of a server with REST routes, a request that no route serves and that is no call (a POST, a
    // Connect GET of a method) is a REST client's to a path that does not exist.
    String text = target.toString();
    int question = text.indexOf('?');
    AsciiString path = AsciiString.of(question < 0 ? text : text.substring(0, question));
    return GET.contentEquals(httpMethod) && routes.containsKey(path) ? null : RestRoutes.NOT_FOUND;
  }

  @Override
  public HttpEndpoint httpEndpoint(CharSequence target) {
    for (HttpEndpoint endpoint : endpoints) {
      if (endpoint.matches(target)) {
        return endpoint;
      }
    }
    return null;
  }

  /** Routes the call of {@code path} to its export; {@code route} is the path's, or null if none is served. */
  private ServerStreamListener route(ServerStream stream, InboundRequest request, AsciiString path, Route route) {
    if (route == null) {
      stream.closeRefused(Status.UNIMPLEMENTED.withDescription("Method not found: " + methodName(request.path())), 404);
      return IgnoringListener.INSTANCE;
    }
    Served served = route.select(request.headers());
    if (served == null) {
      stream.closeRefused(Status.UNIMPLEMENTED.withDescription(unknownExport(route, request)), 404);
      return IgnoringListener.INSTANCE;
    }
    ServerMethodDefinition<?, ?> definition = served.definition;
    if (request.httpGet() && !definition.method().isIdempotent()) {
      stream.closeRefused(Status.UNIMPLEMENTED.withDescription(definition.method().fullMethodName()
          + " is not idempotent: call it with POST (GET serves methods marked idempotent)"), 405);
      return IgnoringListener.INSTANCE;
    }
    MethodAccess methodAccess = access.isEmpty() ? null : access.get(path);
    MethodCounters counters = counting ? route.counters : null;
    if (request.rest() != null) {
      return start(withRestCodecs(definition, request.rest()), methodAccess, route.limit, counters, stream, request);
    }
    if (request.unframed() || request.codec() != null) {
      return startInCodec(served, methodAccess, route.limit, counters, stream, request);
    }
    return start(definition, methodAccess, route.limit, counters, stream, request);
  }

  private static String unknownExport(Route route, InboundRequest request) {
    String version = request.headers().get(ServiceExports.VERSION_HEADER);
    String group = request.headers().get(ServiceExports.GROUP_HEADER);
    return "Service " + route.defaultExport.definition.method().serviceName() + " is not served with "
        + ServiceExports.describe(version == null ? "" : version, group == null ? "" : group)
        + " (" + ServiceExports.VERSION_HEADER + ", " + ServiceExports.GROUP_HEADER + "); served: " + route.exported();
  }

  /**
   * A call whose content type names a codec, or whose body is one unframed message: the same handler
   * chain and executor, with that codec's descriptor.
   */
  private ServerStreamListener startInCodec(
      Served served, MethodAccess methodAccess, CallLimit limit, MethodCounters counters, ServerStream stream,
      InboundRequest request) {
    ServerMethodDefinition<?, ?> ownDefinition = served.definition;
    MethodType type = ownDefinition.method().type();
    if (request.unframed() && (!type.clientSendsOneMessage() || !type.serverSendsOneMessage())) {
      return reject(stream, Status.FAILED_PRECONDITION.withDescription(
          ownDefinition.method().fullMethodName() + " is a " + type
              + " method: call it with a streaming protocol (gRPC, gRPC-Web, or Connect streaming with "
              + "application/connect+json or application/connect+proto)"));
    }
    if (request.codec() == null) {
      return start(ownDefinition, methodAccess, limit, counters, stream, request);
    }
    ServerMethodDefinition<?, ?> definition = served.inCodec(request.codec());
    if (definition == null) {
      return reject(stream, Status.INVALID_ARGUMENT.withDescription(
          ownDefinition.method().fullMethodName() + " does not take " + request.codec() + " messages"));
    }
    return start(definition, methodAccess, limit, counters, stream, request);
  }

  private static ServerStreamListener reject(ServerStream stream, Status status) {
    stream.close(status, new Metadata());
    return IgnoringListener.INSTANCE;
  }

  private static String methodName(CharSequence path) {
    return path.length() > 0 && path.charAt(0) == '/' ? path.subSequence(1, path.length()).toString() : path.toString();
  }

  private <Q, R> ServerStreamListener start(ServerMethodDefinition<Q, R> definition, MethodAccess methodAccess,
      CallLimit limit, MethodCounters counters, ServerStream stream, InboundRequest request) {
    if (counters != null) {
      counters.started();
    }
    VegasLimiter adaptiveLimit = adaptive != null && definition.method().type() == MethodType.UNARY ? adaptive : null;
    if (adaptiveLimit != null && !adaptiveLimit.tryAcquire()) {
      return refuse(stream, adaptiveLimit.refusal(), counters);
    }
    if (limit != null && !limit.tryAcquire()) {
      if (adaptiveLimit != null) {
        adaptiveLimit.release(0, false);
      }
      return refuse(stream, limit.refusal(), counters);
    }
    ServerCallImpl<Q, R> call =
        new ServerCallImpl<>(stream, definition.method(), request, executor, maxInboundMessageSize);
    if (counters != null) {
      call.countIn(counters);
    }
    if (adaptiveLimit != null) {
      long startNanos = stream.nanoTime();
      call.whenEnded(() -> {
        if (limit != null) {
          limit.run();
        }
        adaptiveLimit.release(stream.nanoTime() - startNanos, call.isCancelled());
      });
    } else if (limit != null) {
      call.whenEnded(limit);
    }
    call.start(definition.handler(), methodAccess);
    return call;
  }

  /** Refuses a call over a concurrency limit: HTTP 429. */
  private static ServerStreamListener refuse(ServerStream stream, Status status, MethodCounters counters) {
    if (counters != null) {
      counters.ended(status.code());
    }
    stream.closeRefused(status, 429);
    return IgnoringListener.INSTANCE;
  }

  /** The listener of a stream that was closed at once: releases what still arrives. */
  private enum IgnoringListener implements ServerStreamListener {
    INSTANCE;

    @Override
    public void onMessage(ByteBuf payload, boolean compressed) {
      payload.release();
    }

    @Override
    public void onHalfClose() {}

    @Override
    public void onCancel(Status status) {}

    @Override
    public void onComplete() {}

    @Override
    public void onReady() {}
  }
}
