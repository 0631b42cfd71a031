package io.triplerpc.internal.stream;

import io.triplerpc.CorsPolicy;
import io.triplerpc.TlsConfig;
import io.triplerpc.Transport;

/**
 * Everything a server's transport is configured with, resolved once when the server is built.
 * Immutable; {@link #DEFAULTS} are the server builder's defaults.
 *
 * @param limits what each connection accepts and holds
 * @param maxConcurrentStreams streams a client may have open on one connection
 *     (SETTINGS_MAX_CONCURRENT_STREAMS)
 * @param keepAlive the server's keepalive pings
 * @param timers how the server judges its clients' pings, and how long a connection may live and read
 * @param drainGraceMillis how long a graceful shutdown waits for the PING ACK before its second GOAWAY
 * @param ioThreads event loop threads; 0 for one per core
 * @param transport the I/O of the event loops, or null for the JVM's default
 * @param tls transport security, or null for cleartext
 * @param plaintextAlongsideTls whether a server with {@code tls} also serves cleartext connections
 *     on its port
 * @param cors which browser origins may call the web protocols, or null for none
 * @param maxTotalPendingOutboundBytes message bytes all the server's connections together may hold
 *     that their clients have not taken; past it, the connections holding the most go away; 0 for no
 *     limit
 * @param http3 how HTTP/3 is served beside TCP, or null for not at all
 */
public record ServerTransportOptions(
    Http2Limits limits,
    int maxConcurrentStreams,
    KeepAlive keepAlive,
    ServerConnectionTimers timers,
    long drainGraceMillis,
    int ioThreads,
    Transport transport,
    TlsConfig tls,
    boolean plaintextAlongsideTls,
    CorsPolicy cors,
    long maxTotalPendingOutboundBytes,
    Http3Options http3) {

  /**
   * 1000 streams per connection (grpc-java and grpc-go set no limit, Go's net/http2 250); 1 s drain
   * grace; 256 MiB of unread responses across connections (four connections at their own 64 MiB limit:
   * within the direct memory of a JVM of 512 MiB heap or more, whose default is the heap's size).
   */
  public static final ServerTransportOptions DEFAULTS = new ServerTransportOptions(
      Http2Limits.SERVER_DEFAULTS, 1000, KeepAlive.SERVER_DEFAULTS, ServerConnectionTimers.DEFAULTS, 1000, 0,
      null, null, false, null, 256L << 20, null);

  public ServerTransportOptions {
    java.util.Objects.requireNonNull(limits, "limits");
    Http2Limits.positive(maxConcurrentStreams, "maxConcurrentStreams");
    java.util.Objects.requireNonNull(keepAlive, "keepAlive");
    java.util.Objects.requireNonNull(timers, "timers");
    Http2Limits.checkLimit(drainGraceMillis, "drainGrace");
    Http2Limits.checkLimit(ioThreads, "ioThreads");
    Http2Limits.checkLimit(maxTotalPendingOutboundBytes, "maxTotalPendingOutboundBytes");
  }

  /** These options with {@code limits} instead. */
  public ServerTransportOptions withLimits(Http2Limits limits) {
    return new ServerTransportOptions(limits, maxConcurrentStreams, keepAlive, timers, drainGraceMillis, ioThreads,
        transport, tls, plaintextAlongsideTls, cors, maxTotalPendingOutboundBytes, http3);
  }

  /** These options with {@code keepAlive} and {@code timers} instead. */
  public ServerTransportOptions withTimers(KeepAlive keepAlive, ServerConnectionTimers timers) {
    return new ServerTransportOptions(limits, maxConcurrentStreams, keepAlive, timers, drainGraceMillis, ioThreads,
        transport, tls, plaintextAlongsideTls, cors, maxTotalPendingOutboundBytes, http3);
  }

  /** These options with {@code http3} instead (null: no HTTP/3). */
  public ServerTransportOptions withHttp3(Http3Options http3) {
    return new ServerTransportOptions(limits, maxConcurrentStreams, keepAlive, timers, drainGraceMillis, ioThreads,
        transport, tls, plaintextAlongsideTls, cors, maxTotalPendingOutboundBytes, http3);
  }

  /** These options with {@code maxTotalPendingOutboundBytes} instead. */
  public ServerTransportOptions withMaxTotalPendingOutboundBytes(long bytes) {
    return new ServerTransportOptions(limits, maxConcurrentStreams, keepAlive, timers, drainGraceMillis, ioThreads,
        transport, tls, plaintextAlongsideTls, cors, bytes, http3);
  }
}
