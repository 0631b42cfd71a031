package io.triplerpc;

import io.triplerpc.internal.server.TripleServerBuilder;
import io.triplerpc.spi.AdminView;
import io.triplerpc.spi.ServerRegistration;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;

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
 * then connections close. The implementation is found as {@link TripleClient}'s is.
 */
public abstract class TripleServer {

  /** For the implementation. */
  protected TripleServer() {}

  /** A builder serving on all interfaces at a port chosen by the system, until set. */
  public static Builder builder() {
    return new TripleServerBuilder();
  }

  /**
   * Binds the port and starts serving; returns this server.
   *
   * @throws UncheckedIOException if the port cannot be bound
   * @throws IllegalStateException if already started
   * @throws RuntimeException what a {@link Builder#registration registration} threw; the server is
   *     then shut down and its port released
   */
  public abstract TripleServer start();

  /**
   * The serving status reported by the built-in health service ({@code grpc.health.v1.Health}): the
   * server ({@code ""}) and each service start SERVING.
   */
  public abstract HealthStatusManager health();

  /** The port the server listens on (the real one when 0 was asked for). */
  public abstract int port();

  /** The address the server listens on. */
  public abstract InetSocketAddress localAddress();

  /**
   * Connections open now: accepted and not yet closed, whatever their protocol (HTTP/2, HTTP/1.1, or not
   * chosen yet); 0 before {@link #start()}. Cheap: for gauges.
   */
  public abstract int openConnections();

  /**
   * How the server's HTTP/2 connections batched their writes since it started, connections closed since
   * included, so that the counts only grow (HTTP/1.1 responses go to the socket directly and are not
   * counted); zeros before {@link #start()}. Approximate while calls are in flight.
   */
  public abstract WriteStats writeStats();

  /**
   * Takes the server out of rotation without stopping it, as Dubbo's QoS {@code offline} does: it is withdrawn
   * from its registries (waiting for them, at most their timeout), so consumers that find it there stop sending
   * it calls as they see it go, and its health ({@link #health()}, the server and each service) turns
   * NOT_SERVING, for load balancers and probes that read it. Calls in flight, and calls that still come, are
   * served. Does nothing before {@link #start()}, once shutting down, or when already offline.
   */
  public abstract void offline();

  /**
   * Brings an {@link #offline()} server back: announced in its registries again, as it was at start (with its
   * start time, so that warm-up does not begin again), and its health SERVING. Does nothing unless offline.
   */
  public abstract void online();

  /** Whether the server is {@link #offline()}. */
  public abstract boolean isOffline();

  /**
   * The port of the {@link Builder#admin admin endpoint} (the real one when 0 was asked for).
   *
   * @throws IllegalStateException if the server has none, or is not started
   */
  public abstract int adminPort();

  /**
   * Starts a graceful shutdown: the server is withdrawn from its registries (waiting for them, at
   * most their timeout), then no new connections or calls; calls in flight go on; each connection
   * closes when its last call ends. Otherwise never blocks.
   */
  public abstract void shutdown();

  /**
   * Withdraws the server from its registries (as {@link #shutdown} does), then closes every connection
   * at once; calls in flight are cancelled.
   */
  public abstract void shutdownNow();

  /** Whether the server has shut down completely. */
  public abstract boolean isTerminated();

  /** Waits until the server has shut down completely. */
  public abstract void awaitTermination() throws InterruptedException;

  /** Waits at most {@code timeout} for a complete shutdown; returns whether it happened. */
  public abstract boolean awaitTermination(Duration timeout) throws InterruptedException;

  /**
   * Builds a {@link TripleServer}; the settings it shares with a client's builder are
   * {@link TransportBuilder}'s. Not thread-safe.
   */
  public interface Builder extends TransportBuilder<Builder> {

    /** The port; 0 (the default) lets the system choose, see {@link TripleServer#port()}. */
    Builder port(int port);

    /** The interface to bind, such as {@code 127.0.0.1}; all interfaces by default. */
    Builder host(String host);

    /**
     * Serves {@code implementation} as {@code serviceInterface}.
     *
     * @throws IllegalArgumentException if the interface is not a valid {@link TripleService}
     * @throws IllegalStateException if its {@link TripleService#serialization() serialization} is one whose
     *     artifact is not on the class path ({@code "fastjson2"} without
     *     {@code io.triplerpc:triple-serialization-fastjson2}); the message names the artifact
     */
    <T> Builder addService(Class<T> serviceInterface, T implementation);

    /**
     * Serves {@code implementation} as {@code serviceInterface} in the export named by {@code version} and
     * {@code group} (as Dubbo names its exports), instead of those of the interface's {@link TripleService}.
     * One interface may be served in several exports, each by its own implementation. A call picks one with
     * the {@code tri-service-version} and {@code tri-service-group} headers (see
     * {@link CallOptions#withServiceVersion}), matched exactly; a call with neither reaches the default
     * export, the one without version and group if served, else the first added; a call naming an export
     * that is not served fails with {@link Status#UNIMPLEMENTED}.
     *
     * @param version the service version, empty for none
     * @param group the service group, empty for none
     * @throws IllegalArgumentException as {@link #addService(Class, Object)} does
     * @throws IllegalStateException as {@link #addService(Class, Object)} does
     */
    <T> Builder addService(Class<T> serviceInterface, T implementation, String version, String group);

    /** Serves one method with a hand-written handler. */
    <Q, R> Builder addMethod(MethodDescriptor<Q, R> method, ServerCallHandler<Q, R> handler);

    /**
     * Announces the server in a registry: {@code registration} is told once the port is bound, and
     * again when a shutdown begins, before calls drain.
     */
    Builder registration(ServerRegistration registration);

    /** Interceptors for every call, the first one outermost. */
    Builder intercept(ServerInterceptor... interceptors);

    /**
     * Authenticates and authorizes every call before its interceptors and service see it (health and
     * reflection included, unless the policy opens them); anyone may call anything without one.
     */
    Builder accessPolicy(AccessPolicy policy);

    /**
     * Lets at most {@code limit} calls of each method of {@code serviceOrMethod} ({@code pkg.Service} for
     * each of its methods, {@code pkg.Service/Method} for one, which wins over its service's) run at once;
     * a call past the limit fails at once with {@link Status#RESOURCE_EXHAUSTED} (HTTP 429 for Connect and
     * curl) instead of waiting, as Dubbo's {@code executes} does. A call counts from its start until it
     * ends. Names that are not served are refused at {@code build()}.
     *
     * @throws IllegalArgumentException if {@code limit} is not positive or the name is malformed
     */
    Builder maxConcurrentCalls(String serviceOrMethod, int limit);

    /**
     * Limits the unary calls in flight on this server to a number that adapts to their latency (see
     * {@link AdaptiveConcurrencyLimit}); a call past it fails at once with {@link Status#RESOURCE_EXHAUSTED}
     * (HTTP 429). Streaming calls, whose length says nothing of load, are not counted. Off by default.
     */
    Builder adaptiveConcurrencyLimit(AdaptiveConcurrencyLimit limit);

    /**
     * Lets pages of the policy's origins call the server from browsers (Connect, gRPC-Web): preflights
     * answered, CORS headers on responses. None by default: browsers keep other origins out.
     */
    Builder cors(CorsPolicy policy);

    /**
     * Answers HTTP GET and HEAD requests of exactly {@code path} (a query after it is handed over) with
     * {@code handler}, on this server's port and over whatever it serves there: HTTP/1.1 and HTTP/2,
     * cleartext or TLS. For operations endpoints, such as a Prometheus scrape
     * ({@code TripleMetrics.prometheus} in triple-micrometer). Any other method on the path gets 405 with
     * {@code Allow: GET, HEAD}; gRPC requests and every other path are served as without it. None by
     * default.
     *
     * <p>The endpoint is served to whoever can reach the port, as TLS lets them: with {@link #tls} it is
     * served over TLS only (a client certificate too, if {@link TlsConfig.ClientAuth#REQUIRE} asks for
     * one), but the {@link #accessPolicy}, which rules calls by method, and {@link #cors} do not apply.
     * To keep it from a port's callers, serve it from another server bound to an internal interface or
     * port, or check {@link HttpGetHandler.Request#peer()} in the handler.
     *
     * @param path an absolute path such as {@code /metrics}: no query or fragment, and not a path this
     *     server serves a method at ({@code /pkg.Service/Method}), which {@link #build()} refuses
     * @throws IllegalArgumentException if {@code path} is malformed or already has a handler
     */
    Builder httpGet(String path, HttpGetHandler handler);

    /**
     * Serves an admin endpoint on {@code port} of the loopback interface (127.0.0.1; 0 lets the system choose,
     * {@link TripleServer#adminPort()} tells which), a second small server that answers plain HTTP GETs
     * (HTTP/1.1 and HTTP/2, cleartext), as Apache Dubbo's QoS port (22222 by default there) answers its commands:
     * {@code GET /offline} and {@code GET /online} take the server out of rotation and back
     * ({@link TripleServer#offline()}, {@link TripleServer#online()}) and answer {@code OK}; {@code GET /state}
     * answers JSON: {@code state} ({@code online}, {@code offline} or {@code shutting down}), {@code address},
     * {@code port}, {@code connections} open now and the {@code services} served; {@code GET /connections} each
     * open connection (peer, protocol, streams, bytes, HTTP/2 flow-control windows, keepalive);
     * {@code GET /calls} each method's calls in flight and counts by status since the start; each
     * {@link #adminView} its own JSON; and {@code GET /} all of it as an HTML page. Counting calls costs two
     * uncontended adds per call, paid only by a server with an admin endpoint.
     *
     * <p>Whoever can reach the port can take the server out of rotation: it is bound to loopback only, for the
     * machine's operators and its sidecars; {@link #admin(InetSocketAddress, AccessPolicy)} binds it elsewhere.
     * It starts after the server and stops with it. Off by default.
     *
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    Builder admin(int port);

    /**
     * Serves the {@link #admin(int) admin endpoint} at {@code address} (such as a pod's own address, for a
     * sidecar or an operator's tooling) instead of loopback, every request of it authenticated by
     * {@code policy}'s {@link Authenticator} as a call of {@code triple.admin.Admin/<path>} would be
     * ({@code triple.admin.Admin/offline}, {@code .../connections}; {@code .../page} for {@code /}), and then
     * authorized by the policy's rule for that name, so read-only access can be told from the right to take
     * the server out of rotation. Unauthenticated: 401; refused by the rule: 403. The policy is the endpoint's
     * own: pass the server's {@link #accessPolicy} to share it.
     */
    Builder admin(InetSocketAddress address, AccessPolicy policy);

    /**
     * Adds {@code view} to the {@link #admin(int) admin endpoint}: its JSON at {@code GET /<view.name()>} and a
     * section of the page, such as triple-registry's {@code Discovery} ({@code /directories}: the registry
     * subscriptions and endpoints of the clients built with it, in a process that also serves).
     * {@link #build()} fails if no admin endpoint is set.
     *
     * @throws IllegalArgumentException if its name is malformed or taken
     */
    Builder adminView(AdminView view);

    /**
     * Serves the OpenAPI 3.1 document of the server's REST routes ({@code google.api.http} rules and
     * JAX-RS or Spring Web annotations) at {@code path}, such as {@code /openapi.json}, and each service's
     * own beside it ({@code /openapi/acme.Users.json}), as {@link #httpGet} endpoints are served. Off by
     * default.
     *
     * @param path an absolute path ending in {@code .json}
     * @throws IllegalArgumentException if {@code path} is malformed
     */
    Builder openApi(String path);

    /**
     * Serves a docs page at {@code path}, such as {@code /docs}: Swagger UI showing the documents
     * {@link #openApi} serves, each operation with a form to try it against this server. Its files come from
     * the {@code org.webjars:swagger-ui} webjar, which the application adds as a dependency; under
     * {@code path} the server serves that webjar's files and nothing else. Off by default.
     *
     * @param path an absolute path such as {@code /docs}, not ending in {@code /}
     * @throws IllegalArgumentException if {@code path} is malformed
     * @see #build() which fails if {@link #openApi} is not set or the webjar is missing
     */
    Builder openApiDocs(String path);

    /**
     * Runs service methods on the transport's event loop, without a hand-off to another thread, as
     * grpc-java's {@code directExecutor()}: the fastest choice for services that never block (no
     * blocking calls, waits or slow work). A service that blocks stalls every call on the connections
     * of its event loop, and a blocking call to a server on the same event loop never returns.
     */
    Builder directExecutor();

    /** Streams a client may have open on one connection; 1000 by default. */
    Builder maxConcurrentStreams(int streams);

    /**
     * Bytes all connections together may hold that their clients have not taken (each connection's
     * share is what {@link #maxPendingOutboundBytes} bounds). Past the limit, the connections holding
     * the most go away as a connection past its own limit does (GOAWAY ENHANCE_YOUR_CALM; their calls
     * fail with RESOURCE_EXHAUSTED), and the others are not touched, except that until the server is back
     * within the limit a connection with a large response (32 KiB or more) waiting gets no more: a new
     * one is dropped as it is made and its call fails with RESOURCE_EXHAUSTED. Streaming calls see
     * {@code isReady()} false from half the limit on. 256 MiB by default; 0 for no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    Builder maxTotalPendingOutboundBytes(long bytes);

    /**
     * How long a graceful shutdown waits for the client's answer to the PING sent with its first
     * GOAWAY before it sends the second (the one that names the last stream processed) anyway; the
     * answer, when it comes first, shows every stream the client sent before is in. 1 s by default.
     */
    Builder drainGrace(Duration grace);

    /**
     * With {@link #tls}: whether cleartext connections (HTTP/2 and HTTP/1.1) are served on the same
     * port too, told apart from TLS by their first bytes; false by default. Meant for migrations and
     * test servers: a cleartext client skips every guarantee TLS gives, so {@link #build()} refuses
     * this together with {@link TlsConfig.ClientAuth#REQUIRE}.
     */
    Builder plaintextAlongsideTls(boolean enabled);

    /**
     * The shortest interval between a client's PINGs that the server lets pass. A client that pings
     * more often gets two strikes; the third too-early PING gets GOAWAY ENHANCE_YOUR_CALM with debug
     * data "too_many_pings" and the connection closes (grpc-java's and Go's clients then double their
     * keepalive time). Strikes are forgiven whenever the server sends headers or data. 5 minutes by
     * default, as in grpc-java and Go; zero permits any rate.
     *
     * @throws IllegalArgumentException if negative
     */
    Builder permitKeepAliveTime(Duration time);

    /**
     * Whether a client may ping at {@link #permitKeepAliveTime} on a connection without calls. False by
     * default, as in grpc-java: such a connection may be pinged once per two hours.
     */
    Builder permitKeepAliveWithoutCalls(boolean permitted);

    /**
     * Closes a connection that has had no calls for {@code idle}: GOAWAY (debug data "max_idle"), so
     * its client opens a new one when it needs one. Off by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    Builder maxConnectionIdle(Duration idle);

    /**
     * Closes a connection gracefully once it has lived for {@code age}, give or take 10% so that the
     * connections opened together do not all close together: GOAWAY (debug data "max_age"), new calls
     * go to a new connection, calls in flight finish (see {@link #maxConnectionAgeGrace}). It spreads
     * clients over servers added since they connected. Off by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    Builder maxConnectionAge(Duration age);

    /**
     * How long the calls in flight on a connection closed for its {@link #maxConnectionAge} may still
     * run; then the connection closes and they fail with UNAVAILABLE. Unbounded by default, as in
     * grpc-java.
     *
     * @throws IllegalArgumentException if negative
     */
    Builder maxConnectionAgeGrace(Duration grace);

    /**
     * How long a new connection has to choose its protocol (a TLS handshake, then the HTTP/2 preface
     * or an HTTP/1.1 request's headers) before it is closed, so that connections that never speak do
     * not pile up. 120 s by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    Builder handshakeTimeout(Duration timeout);

    /**
     * HTTP/1.1 read timeouts: how long a request's line and headers may take to arrive once its first
     * byte has ({@code headers}), and how long its body may go without a byte arriving
     * ({@code bodyIdle}); past either, the server answers 408 and closes the connection, so that a
     * client trickling bytes (slowloris) holds no connection for long. 60 s each by default, as nginx's
     * {@code client_header_timeout} and {@code client_body_timeout}.
     *
     * @throws IllegalArgumentException if either is not positive
     */
    Builder httpReadTimeouts(Duration headers, Duration bodyIdle);

    /**
     * As {@link #http3()}, on UDP port {@code udpPort} (0: the TCP port's number).
     *
     * @throws IllegalArgumentException if {@code udpPort} is not a port number
     */
    Builder http3(int udpPort);

    /**
     * With {@link #http3}: how long clients may remember the {@code Alt-Svc: h3=":port"} that HTTP/2 and
     * HTTP/1.1 responses carry ({@code ma}); zero sends none. 24 hours by default (RFC 7838's default).
     *
     * @throws IllegalArgumentException if negative
     */
    Builder altSvcMaxAge(Duration maxAge);

    /**
     * Builds the server; {@link TripleServer#start()} binds the port.
     *
     * @throws IllegalStateException if {@link #plaintextAlongsideTls} is set without {@link #tls}, or
     *     with a {@code tls} that requires client certificates; if {@link #http3} is set without
     *     {@link #tls} from PEM files, or without {@code io.triplerpc:triple-transport-http3} on the class
     *     path (the message names the artifact)
     */
    TripleServer build();
  }
}
