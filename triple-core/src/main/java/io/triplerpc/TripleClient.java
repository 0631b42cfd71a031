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

  /**
   * Builds a {@link TripleClient}; the settings it shares with a server's builder are
   * {@link TransportBuilder}'s. Not thread-safe.
   */
  public interface Builder extends TransportBuilder<Builder> {

    /** The server's host and port. */
    Builder address(String host, int port);

    /**
     * The server's address as {@code host:port}, or a target with a scheme that a
     * {@link TargetResolver} on the class path understands, such as {@code registry://127.0.0.1:7070}
     * or {@code zookeeper://zk1:2181,zk2:2181} ({@code triple-registry}).
     *
     * @throws IllegalArgumentException if it is neither, or no resolver knows the scheme
     */
    Builder address(String hostAndPort);

    /**
     * Spreads calls over the servers that {@code factory}'s cluster finds (a registry, say), instead
     * of one address.
     */
    Builder cluster(ClusterFactory factory);

    /**
     * Where callbacks of asynchronous and streaming calls run: {@link #executor}.
     *
     * @deprecated the same as {@link #executor}, the name a server's builder and grpc-java use
     */
    @Deprecated
    default Builder callbackExecutor(Executor executor) {
      return executor(executor);
    }

    /** Call options of proxies made without explicit ones (a default deadline, say). */
    Builder defaultCallOptions(CallOptions options);

    /** Interceptors for every call, the first one outermost. */
    Builder intercept(ClientInterceptor... interceptors);

    /** Connections to open to the address, used round robin; 1 by default. */
    Builder connectionsPerAddress(int connections);

    /** How long to wait for a connection; 10 s by default. */
    Builder connectTimeout(Duration timeout);

    /** Reconnect backoff: first delay (1 s) doubling up to the maximum (2 min), with jitter. */
    Builder reconnectBackoff(Duration initial, Duration max);

    /**
     * The wire protocol of the calls: gRPC by default, gRPC-Web or Connect; see {@link #codec},
     * {@link #http1} and {@link #connectGet} for their codec, HTTP version and Connect's GET.
     */
    Builder protocol(ClientProtocol protocol);

    /**
     * Credentials for every call whose {@link CallOptions} bring none, such as
     * {@link CallCredentials#bearerToken}. Sent over TLS only, unless they
     * {@linkplain CallCredentials#allowsCleartext() allow cleartext}.
     */
    Builder callCredentials(CallCredentials credentials);

    /**
     * Retries failed calls of {@code servicesOrMethods} ({@code pkg.Service} or {@code pkg.Service/Method};
     * none for every call) as {@code policy} says; a method's policy wins over its service's, and a
     * service's over the one for every call. On single-address and registry clients alike.
     *
     * @throws IllegalArgumentException if a name is malformed or has a hedging policy
     */
    Builder retryPolicy(RetryPolicy policy, String... servicesOrMethods);

    /**
     * Hedges calls of {@code servicesOrMethods} (names as for {@link #retryPolicy}) as {@code policy} says:
     * for idempotent methods, whose attempts a server may all run. A name has a retry or a hedging
     * policy, not both.
     *
     * @throws IllegalArgumentException if a name is malformed or has a retry policy
     */
    Builder hedgingPolicy(HedgingPolicy policy, String... servicesOrMethods);

    /**
     * gRPC's retry throttling: the client holds {@code maxTokens} tokens (1 to 1000); each retryable
     * failure takes one, each success gives back {@code tokenRatio}; calls go again only while more than
     * half are left, so a failing server is not hammered. Off by default, as in gRPC.
     */
    Builder retryThrottling(int maxTokens, double tokenRatio);

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
    Builder serviceConfig(String json);

    /**
     * {@link #serviceConfig(String)} from parsed JSON, as grpc-java's {@code defaultServiceConfig(Map)} takes
     * it: maps with string keys, lists, strings, numbers, booleans and nulls.
     *
     * @throws IllegalArgumentException as {@link #serviceConfig(String)}
     */
    Builder serviceConfig(Map<String, ?> config);

    /**
     * The request bytes a call keeps to send them again (1 MiB by default) and all calls together (16 MiB);
     * a call past either is no longer retried.
     */
    Builder retryBufferSize(long perCall, long perClient);

    /**
     * Whether keepalive pings go out on a connection without calls too, keeping it warm for the next
     * call (servers must permit it: {@code permitKeepAliveWithoutCalls}). False by default: a connection
     * without calls is pinged again when a call starts after {@link #keepAliveTime} of silence.
     */
    Builder keepAliveWithoutCalls(boolean enabled);

    /** Builds the client; no connection opens until the first call. */
    TripleClient build();

    /**
     * The codec of protobuf messages on the wire: {@code "proto"} (the default, protobuf's binary
     * encoding) or {@code "json"}, protobuf's canonical JSON mapping, as connect-go's
     * {@code WithProtoJSON()}: {@code application/json} and {@code application/connect+json} in Connect,
     * {@code application/grpc-web+json} in gRPC-Web, {@code application/grpc+json} in gRPC. Every Triple
     * server reads both. A call of a method whose messages have no JSON mapping (lite protobuf) fails.
     *
     * @throws IllegalArgumentException if neither {@code "proto"} nor {@code "json"}
     */
    Builder codec(String codec);

    /**
     * Sends Connect unary calls of {@link TripleMethod#idempotent() idempotent} methods as HTTP GET, the
     * request in the URL's query (which browsers and CDNs may cache), as connect-go's
     * {@code WithHTTPGet()}; off by default. A call whose request target (path and query) would be longer
     * than 4,000 bytes goes as POST, so that its request line fits the 4,096 bytes HTTP/1.1 servers
     * commonly accept (Netty's default, and so Triple's). Only the {@link ClientProtocol#CONNECT} protocol
     * has GET.
     */
    Builder connectGet(boolean enabled);

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
    Builder http1(boolean enabled);

    /**
     * Calls over HTTP/3 as {@link #http3()}, falling back to HTTP/2 over TCP (same host and port) when
     * no QUIC connection is up within {@code fallbackAfter} (UDP blocked, no HTTP/3 on the server, a
     * failed handshake). Once fallen back, the client stays on HTTP/2 for that address. A second or two
     * suits most networks.
     *
     * @throws IllegalArgumentException if {@code fallbackAfter} is not positive
     */
    Builder http3(Duration fallbackAfter);

    /**
     * Calls over HTTP/2 (or as {@link #http1} says) until a response advertises HTTP/3 on the same host
     * with {@code Alt-Svc: h3=":port"} (RFC 7838); from then on, new calls go over HTTP/3 to that port
     * for as long as its {@code ma} says (24 hours when not given), or until a response says
     * {@code clear}. If no QUIC handshake is done within 2 s, the client keeps to TCP, as
     * {@link #http3(Duration)} does. Opt-in; needs {@code tls(...)} from PEM files and
     * {@code io.triplerpc:triple-transport-http3}, as {@link #http3()} does.
     */
    Builder http3FromAltSvc();
  }
}
