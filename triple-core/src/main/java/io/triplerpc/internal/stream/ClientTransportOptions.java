package io.triplerpc.internal.stream;

import io.triplerpc.ClientProtocol;
import io.triplerpc.TlsConfig;
import io.triplerpc.Transport;
import java.time.Duration;

/**
 * Everything a client's transport is configured with, resolved once when the client is built.
 * Immutable; {@link #DEFAULTS} are the client builder's defaults.
 *
 * @param limits what each connection accepts and holds
 * @param keepAlive the client's keepalive pings
 * @param connectionsPerAddress connections opened per server address, used round robin
 * @param connectTimeoutMillis how long a connection attempt may take
 * @param initialBackoffMillis first delay before reconnecting after a failed attempt
 * @param maxBackoffMillis longest delay between attempts
 * @param ioThreads event loop threads of the client's own; 0 to share the process's client event loops
 * @param transport the I/O of the event loops, or null for the JVM's default
 * @param tls transport security, or null for cleartext
 * @param protocol the wire protocol of the client's calls
 * @param codec the codec of the messages, {@code "proto"} or {@code "json"} (protobuf's JSON mapping)
 * @param http1 whether calls go over HTTP/1.1, one at a time per connection, rather than HTTP/2
 * @param httpGet whether Connect unary calls of idempotent methods go as GET
 * @param http3 how calls go over HTTP/3 (QUIC), or null for not at all
 */
public record ClientTransportOptions(
    Http2Limits limits,
    KeepAlive keepAlive,
    int connectionsPerAddress,
    int connectTimeoutMillis,
    long initialBackoffMillis,
    long maxBackoffMillis,
    int ioThreads,
    Transport transport,
    TlsConfig tls,
    ClientProtocol protocol,
    String codec,
    boolean http1,
    boolean httpGet,
    Http3ClientOptions http3) {

  /** The codec of protobuf's binary encoding, the default. */
  public static final String PROTO = "proto";
  /** The codec of protobuf's canonical JSON mapping. */
  public static final String JSON = "json";

  /** One connection, 10 s to connect, reconnecting after 1 s doubling up to 2 min, as grpc-java. */
  public static final ClientTransportOptions DEFAULTS = new ClientTransportOptions(
      Http2Limits.CLIENT_DEFAULTS, KeepAlive.CLIENT_DEFAULTS, 1, 10_000,
      Duration.ofSeconds(1).toMillis(), Duration.ofMinutes(2).toMillis(), 0, null, null, ClientProtocol.GRPC, PROTO, false, false,
      null);

  public ClientTransportOptions {
    java.util.Objects.requireNonNull(limits, "limits");
    java.util.Objects.requireNonNull(keepAlive, "keepAlive");
    Http2Limits.positive(connectionsPerAddress, "connectionsPerAddress");
    Http2Limits.positive(connectTimeoutMillis, "connectTimeout");
    if (initialBackoffMillis <= 0 || maxBackoffMillis < initialBackoffMillis) {
      throw new IllegalArgumentException("reconnect backoff must satisfy 0 < initial <= max: "
          + initialBackoffMillis + " ms, " + maxBackoffMillis + " ms");
    }
    Http2Limits.checkLimit(ioThreads, "ioThreads");
    java.util.Objects.requireNonNull(protocol, "protocol");
    if (!PROTO.equals(codec) && !JSON.equals(codec)) {
      throw new IllegalArgumentException("codec must be \"proto\" or \"json\": " + codec);
    }
    if (http1 && protocol == ClientProtocol.GRPC) {
      throw new IllegalArgumentException(
          "gRPC needs HTTP/2 (its trailers); over HTTP/1.1, call with ClientProtocol.GRPC_WEB or CONNECT");
    }
    if (http1 && http3 != null) {
      throw new IllegalArgumentException("http1 and http3 exclude each other: choose one HTTP version");
    }
    if (http3 != null && tls == null) {
      throw new IllegalArgumentException("http3 needs TLS: QUIC is always TLS 1.3");
    }
  }

  /**
   * Options of a client of protobuf's binary codec over HTTP/2 on the JVM's default transport, Connect
   * unary calls as POST.
   */
  public ClientTransportOptions(Http2Limits limits, KeepAlive keepAlive, int connectionsPerAddress,
      int connectTimeoutMillis, long initialBackoffMillis, long maxBackoffMillis, int ioThreads, TlsConfig tls,
      ClientProtocol protocol) {
    this(limits, keepAlive, connectionsPerAddress, connectTimeoutMillis, initialBackoffMillis, maxBackoffMillis,
        ioThreads, null, tls, protocol, PROTO, false, false, null);
  }

  /** These options with {@code limits} instead. */
  public ClientTransportOptions withLimits(Http2Limits limits) {
    return new ClientTransportOptions(limits, keepAlive, connectionsPerAddress, connectTimeoutMillis,
        initialBackoffMillis, maxBackoffMillis, ioThreads, transport, tls, protocol, codec, http1, httpGet, http3);
  }

  /** These options over HTTP/2 on TCP instead of HTTP/3: the transport a client falls back to. */
  public ClientTransportOptions withoutHttp3() {
    return new ClientTransportOptions(limits, keepAlive, connectionsPerAddress, connectTimeoutMillis,
        initialBackoffMillis, maxBackoffMillis, ioThreads, transport, tls, protocol, codec, http1, httpGet, null);
  }

  /** These options with {@code keepAlive} instead. */
  public ClientTransportOptions withKeepAlive(KeepAlive keepAlive) {
    return new ClientTransportOptions(limits, keepAlive, connectionsPerAddress, connectTimeoutMillis,
        initialBackoffMillis, maxBackoffMillis, ioThreads, transport, tls, protocol, codec, http1, httpGet, http3);
  }
}
