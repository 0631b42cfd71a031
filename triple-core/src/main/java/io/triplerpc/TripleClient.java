package io.triplerpc;

import io.triplerpc.internal.client.TripleClientBuilder;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.TargetResolver;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executor;

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
 *
 * <p>The implementation lives in {@code triple-core}'s internal packages; {@link #builder()} is the API's
 * one way in, and the rest of the API never names it.
 */
public abstract class TripleClient implements ClientCallFactory, AutoCloseable {

  /** For the implementation. */
  protected TripleClient() {}

  /** A builder; {@link Builder#address} is required. */
  public static Builder builder() {
    return new TripleClientBuilder();
  }

  /** A proxy of {@code serviceInterface} using the client's default call options. */
  public abstract <T> T proxy(Class<T> serviceInterface);

  /**
   * A proxy of {@code serviceInterface} whose calls use {@code options}.
   *
   * @throws IllegalArgumentException if the interface is not a {@link TripleService} Triple can call
   * @throws IllegalStateException if its {@link TripleService#serialization() serialization} is one whose
   *     artifact is not on the class path ({@code "fastjson2"} without
   *     {@code io.triplerpc:triple-serialization-fastjson2}); the message names the artifact
   */
  public abstract <T> T proxy(Class<T> serviceInterface, CallOptions options);

  /** A new call through the client's interceptors, then those of {@code options}; not started. */
  @Override
  public abstract <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options);

  /**
   * Generic calls of the service named {@code serviceName} (a Dubbo service's interface name), made with
   * {@code options} (their service version and group select the export, as for a proxy).
   */
  public abstract GenericService generic(String serviceName, CallOptions options);

  /**
   * Whether a connection is up now: a volatile read for a client of one address; a client with a
   * cluster looks at each server's connection.
   */
  public abstract boolean isConnectionActive();

  /** How the client's connections batched their writes so far. */
  public abstract WriteStats writeStats();

  /**
   * Closes the connections; calls in flight fail with UNAVAILABLE. Idempotent; never blocks, except
   * to close a registry of the client's own (a {@code zookeeper://} target's, say).
   */
  @Override
  public abstract void close();

  /** Builds a {@link TripleClient}. Not thread-safe. */
  public abstract static class Builder {

    /** For the implementation. */
    protected Builder() {}

    /** The server's host and port. */
    public abstract Builder address(String host, int port);

    /**
     * The server's address as {@code host:port}, or a target with a scheme that a
     * {@link TargetResolver} on the class path understands, such as {@code registry://127.0.0.1:7070}
     * or {@code zookeeper://zk1:2181,zk2:2181} ({@code triple-registry}).
     *
     * @throws IllegalArgumentException if it is neither, or no resolver knows the scheme
     */
    public abstract Builder address(String hostAndPort);

    /**
     * Spreads calls over the servers that {@code factory}'s cluster finds (a registry, say), instead
     * of one address.
     */
    public abstract Builder cluster(ClusterFactory factory);

    /**
     * Where callbacks of asynchronous and streaming calls run (each call's callbacks in order, one at
     * a time). By default a pool of the client's own daemon threads, one fewer than there are cores
     * (at least one), that takes queued callbacks without a thread wake-up each and replaces a callback
     * that blocks; its threads end when idle. Synchronous unary calls run theirs on the calling thread.
     */
    public abstract Builder callbackExecutor(Executor executor);

    /** Call options of proxies made without explicit ones (a default deadline, say). */
    public abstract Builder defaultCallOptions(CallOptions options);

    /** Interceptors for every call, the first one outermost. */
    public abstract Builder intercept(ClientInterceptor... interceptors);

    /**
     * Adds an observer of every call and attempt of this client: its method, target, status, duration
     * and message sizes (for metrics and access logs). None by default, and then no cost.
     */
    public abstract Builder callObserver(CallObserver observer);

    /** Largest response message accepted; 4 MiB by default. */
    public abstract Builder maxInboundMessageSize(int bytes);

    /** Largest response header block accepted; 8 KiB by default. */
    public abstract Builder maxHeaderListSize(int bytes);

    /**
     * The HTTP/2 flow-control window each stream and the connection start with; 1 MiB by default. It
     * grows up to {@link #maxWindowSize} as the connection's bandwidth-delay product asks.
     */
    public abstract Builder initialWindowSize(int bytes);

    /**
     * The largest the flow-control windows grow to: to twice the bytes a server sends in one round
     * trip, measured with PINGs, as grpc-java and grpc-go do; 8 MiB by default. At most
     * {@link #initialWindowSize} for windows that never grow.
     */
    public abstract Builder maxWindowSize(int bytes);

    /** Connections to open to the address, used round robin; 1 by default. */
    public abstract Builder connectionsPerAddress(int connections);

    /** How long to wait for a connection; 10 s by default. */
    public abstract Builder connectTimeout(Duration timeout);

    /** Reconnect backoff: first delay (1 s) doubling up to the maximum (2 min), with jitter. */
    public abstract Builder reconnectBackoff(Duration initial, Duration max);

    /**
     * Event loop threads of this client's own; 0 (the default) to share the process's client event
     * loops, one per core, with every client that does not ask for its own (they end when the last
     * such client closes).
     */
    public abstract Builder ioThreads(int threads);

    /**
     * The wire protocol of the calls: gRPC by default, gRPC-Web or Connect; see {@link #codec},
     * {@link #http1} and {@link #httpGet} for their codec, HTTP version and Connect's GET.
     */
    public abstract Builder protocol(ClientProtocol protocol);

    /**
     * Connects with TLS (ALPN {@code h2}): the server's certificate is verified against
     * {@link TlsConfig#trustCertificates()} (the JDK's trust store when not set) and its host name;
     * a {@link TlsConfig#certificateChain()} is presented for mutual TLS.
     */
    public abstract Builder tls(TlsConfig tls);

    /**
     * Credentials for every call whose {@link CallOptions} bring none, such as
     * {@link CallCredentials#bearerToken}. Sent over TLS only, unless they
     * {@linkplain CallCredentials#allowsCleartext() allow cleartext}.
     */
    public abstract Builder callCredentials(CallCredentials credentials);

    /**
     * Retries failed calls of {@code servicesOrMethods} ({@code pkg.Service} or {@code pkg.Service/Method};
     * none for every call) as {@code policy} says; a method's policy wins over its service's, and a
     * service's over the one for every call. On single-address and registry clients alike.
     *
     * @throws IllegalArgumentException if a name is malformed or has a hedging policy
     */
    public abstract Builder retryPolicy(RetryPolicy policy, String... servicesOrMethods);

    /**
     * Hedges calls of {@code servicesOrMethods} (names as for {@link #retryPolicy}) as {@code policy} says:
     * for idempotent methods, whose attempts a server may all run. A name has a retry or a hedging
     * policy, not both.
     *
     * @throws IllegalArgumentException if a name is malformed or has a retry policy
     */
    public abstract Builder hedgingPolicy(HedgingPolicy policy, String... servicesOrMethods);

    /**
     * gRPC's retry throttling: the client holds {@code maxTokens} tokens (1 to 1000); each retryable
     * failure takes one, each success gives back {@code tokenRatio}; calls go again only while more than
     * half are left, so a failing server is not hammered. Off by default, as in gRPC.
     */
    public abstract Builder retryThrottling(int maxTokens, double tokenRatio);

    /**
     * Retry and hedging policies, default deadlines and retry throttling from a service config in gRPC's
     * JSON form ({@code grpc/service_config/service_config.proto}, retries as gRPC proposal A6), as
     * grpc-java's {@code defaultServiceConfig} takes it. Honoured: {@code methodConfig}'s {@code name},
     * {@code retryPolicy}, {@code hedgingPolicy} and {@code timeout} (the deadline of the calls it covers,
     * unless theirs is sooner), and {@code retryThrottling}. Ignored, with a debug log:
     * {@code waitForReady}, {@code maxRequestMessageBytes}, {@code maxResponseMessageBytes},
     * {@code loadBalancingConfig}, {@code loadBalancingPolicy} and unknown fields. A call takes the one
     * method config of its most specific name (its method's, its service's, the default), as in gRPC.
     * Replaces the service config set before; a name's policy set by {@link #retryPolicy} or
     * {@link #hedgingPolicy}, and {@link #retryThrottling}, win over the service config's.
     *
     * @throws IllegalArgumentException if it is not a JSON object or breaks gRPC's rules (a
     *     {@code maxAttempts} below 2, a malformed duration, an unknown status code, a name in two method
     *     configs, a retry and a hedging policy in one); the message starts with the offending field's path
     */
    public abstract Builder serviceConfig(String json);

    /**
     * {@link #serviceConfig(String)} from parsed JSON, as grpc-java's {@code defaultServiceConfig(Map)} takes
     * it: maps with string keys, lists, strings, numbers, booleans and nulls.
     *
     * @throws IllegalArgumentException as {@link #serviceConfig(String)}
     */
    public abstract Builder serviceConfig(Map<String, ?> config);

    /**
     * The request bytes a call keeps to send them again (1 MiB by default) and all calls together (16 MiB);
     * a call past either is no longer retried.
     */
    public abstract Builder retryBufferSize(long perCall, long perClient);

    /**
     * HTTP/2 control frames (PING and SETTINGS acknowledgements, RST_STREAM) a connection may hold
     * that its socket has not taken yet, as for a server that sends PINGs and never reads; past it,
     * the connection closes and its calls fail with UNAVAILABLE. 10,000 by default, as Netty's HTTP/2
     * builder; 0 for no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public abstract Builder maxQueuedControlFrames(int frames);

    /**
     * RST_STREAM frames a connection may receive per {@code window}, and apart from those, send (this
     * client's own cancellations count); past it, GOAWAY ENHANCE_YOUR_CALM and the connection closes.
     * No limit by default, as in Netty's HTTP/2 builder for clients: a server can reset only the streams
     * this client opened. 0 frames for no limit.
     *
     * @param window whole seconds, at least 1
     * @throws IllegalArgumentException if {@code frames} is negative or {@code window} out of range
     */
    public abstract Builder maxRstFramesPerWindow(int frames, Duration window);

    /**
     * Empty DATA frames without END_STREAM a server may send in a row; one more than the limit gets
     * GOAWAY ENHANCE_YOUR_CALM, and the connection's calls fail with UNAVAILABLE. 2 by default, as
     * Netty's HTTP/2 builder; 0 for no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public abstract Builder maxConsecutiveEmptyDataFrames(int frames);

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
    public abstract Builder keepAliveTime(Duration time);

    /**
     * How long a keepalive PING may go without anything read from the server before the connection is
     * taken for dead: it closes, its calls fail with UNAVAILABLE, and the next call opens a new one.
     * 20 s by default, as in grpc-java.
     *
     * @throws IllegalArgumentException if not positive
     */
    public abstract Builder keepAliveTimeout(Duration timeout);

    /**
     * Whether keepalive pings go out on a connection without calls too, keeping it warm for the next
     * call (servers must permit it: {@code permitKeepAliveWithoutCalls}). False by default: a connection
     * without calls is pinged again when a call starts after {@link #keepAliveTime} of silence.
     */
    public abstract Builder keepAliveWithoutCalls(boolean enabled);

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
    public abstract Builder maxPendingOutboundBytes(long bytes);

    /**
     * Lets responses of plain Java (hessian2, fastjson2, jackson) services hold values of these classes too: exact class
     * names, or package prefixes ending with a dot. By default a response may hold only classes its
     * service's signatures reach and a few JDK value types; see
     * {@link io.triplerpc.serialization.object.AllowedClasses}. Adds to what
     * {@code META-INF/triple/serialize.allowlist} and {@code -Dtriple.serialization.allow} allow; applies
     * to the proxies of the client built next.
     *
     * @throws IllegalArgumentException if an entry is not a class name or a prefix of two or more levels
     */
    public abstract Builder allowDeserialization(String... classNamesOrPackagePrefixes);

    /** Builds the client; no connection opens until the first call. */
    public abstract TripleClient build();

    /**
     * The codec of protobuf messages on the wire: {@code "proto"} (the default, protobuf's binary
     * encoding) or {@code "json"}, protobuf's canonical JSON mapping, as connect-go's
     * {@code WithProtoJSON()}: {@code application/json} and {@code application/connect+json} in Connect,
     * {@code application/grpc-web+json} in gRPC-Web, {@code application/grpc+json} in gRPC. Every Triple
     * server reads both. A call of a method whose messages have no JSON mapping (lite protobuf) fails.
     *
     * @throws IllegalArgumentException if neither {@code "proto"} nor {@code "json"}
     */
    public abstract Builder codec(String codec);

    /**
     * Sends Connect unary calls of {@link TripleMethod#idempotent() idempotent} methods as HTTP GET, the
     * request in the URL's query (which browsers and CDNs may cache), as connect-go's
     * {@code WithHTTPGet()}; off by default. A call whose request target (path and query) would be longer
     * than 4,000 bytes goes as POST, so that its request line fits the 4,096 bytes HTTP/1.1 servers
     * commonly accept (Netty's default, and so Triple's). Only the {@link ClientProtocol#CONNECT} protocol
     * has GET.
     */
    public abstract Builder httpGet(boolean enabled);

    /**
     * Calls over HTTP/1.1 instead of HTTP/2 (cleartext, or TLS with ALPN {@code http/1.1}), for servers and
     * proxies that speak nothing else; off by default. Each connection carries one call at a time: a call
     * takes an idle connection or opens one, returns it once its response has ended, and a cancelled call
     * closes its connection. Unary, client- and server-streaming calls work; a bidirectional call works half
     * duplex (its whole request stream, then the responses), and full duplex only with a server that reads
     * a request body while it answers (Triple's does; most HTTP/1.1 servers and proxies do not, and a call
     * that waits for a response before it sends more then waits for its deadline: use HTTP/2 for full
     * duplex). For {@link ClientProtocol#GRPC_WEB} and {@link ClientProtocol#CONNECT}: gRPC needs HTTP/2,
     * and {@link #build()} refuses it.
     */
    public abstract Builder http1(boolean enabled);
  }
}
