package io.triplerpc.internal.stream;

import io.triplerpc.TlsConfig;
import java.time.Duration;

/**
 * Transport limits and tunables, resolved once when a client or server is built. Immutable.
 *
 * @param maxInboundMessageSize largest message accepted, in bytes
 * @param maxHeaderListSize largest header block accepted (HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE)
 * @param maxConcurrentStreams streams a peer may open on one connection (server side)
 * @param initialWindowSize HTTP/2 stream flow-control window
 * @param connectionsPerAddress connections a client opens per server address
 * @param connectTimeoutMillis how long a client waits for a connection
 * @param initialBackoffMillis first delay before reconnecting after a failed connect
 * @param maxBackoffMillis longest delay between reconnect attempts
 * @param ioThreads event loop threads (0 for Netty's default)
 * @param drainDelayMillis server only: how long a graceful shutdown waits for the PING ACK before its second GOAWAY
 * @param tls transport security, or null for cleartext
 * @param plaintextAlongsideTls server only: whether a server with {@code tls} also serves cleartext
 *     connections on its port
 * @param maxQueuedControlFrames control frames (PING and SETTINGS acknowledgements, RST_STREAM) a
 *     connection may hold that the socket has not yet taken; past it the connection closes
 *     (CVE-2019-9512, -9515); 0 for no limit
 * @param maxRstFramesPerWindow RST_STREAM frames a connection may receive, and send, per
 *     {@code rstFramesWindowSeconds}; past it the connection goes away with ENHANCE_YOUR_CALM
 *     (rapid reset, CVE-2023-44487; and CVE-2025-55163 for the sent ones); 0 for no limit
 * @param rstFramesWindowSeconds the window of {@code maxRstFramesPerWindow}, in seconds
 * @param maxConsecutiveEmptyDataFrames empty DATA frames without END_STREAM a peer may send in a
 *     row; one more ends the connection with ENHANCE_YOUR_CALM; 0 for no limit
 * @param timers keepalive, the connection's lifetime and the read timeouts
 * @param maxPendingOutboundBytes message bytes a connection may hold that its peer has not yet
 *     taken (no flow-control window, or a socket that does not drain); past it, the stream being
 *     written is reset, and a peer that still does not read loses the connection; 0 for no limit
 */
public record TransportOptions(
    int maxInboundMessageSize,
    int maxHeaderListSize,
    int maxConcurrentStreams,
    int initialWindowSize,
    int connectionsPerAddress,
    int connectTimeoutMillis,
    long initialBackoffMillis,
    long maxBackoffMillis,
    int ioThreads,
    long drainDelayMillis,
    TlsConfig tls,
    boolean plaintextAlongsideTls,
    int maxQueuedControlFrames,
    int maxRstFramesPerWindow,
    int rstFramesWindowSeconds,
    int maxConsecutiveEmptyDataFrames,
    ConnectionTimers timers,
    long maxPendingOutboundBytes) {

  public static final int DEFAULT_MAX_INBOUND_MESSAGE_SIZE = 4 * 1024 * 1024;
  public static final int DEFAULT_MAX_HEADER_LIST_SIZE = 8 * 1024;
  public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 1000;
  public static final int DEFAULT_INITIAL_WINDOW_SIZE = 1024 * 1024;
  /** As Netty's {@code AbstractHttp2ConnectionHandlerBuilder}, grpc-java's server and Go's net/http2. */
  public static final int DEFAULT_MAX_QUEUED_CONTROL_FRAMES = 10_000;
  /** A server's default, as Netty's builder; a client's is 0 (its streams are its own to reset). */
  public static final int DEFAULT_MAX_RST_FRAMES_PER_WINDOW = 200;
  public static final int DEFAULT_RST_FRAMES_WINDOW_SECONDS = 30;
  /** 64 MiB: sixteen maximum-size messages; see {@code maxPendingOutboundBytes}. */
  public static final long DEFAULT_MAX_PENDING_OUTBOUND_BYTES = 64L << 20;
  /** As Netty's builder: no valid use sends empty DATA frames without END_STREAM. */
  public static final int DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES = 2;

  /**
   * A server's defaults: 4 MiB messages, 8 KiB headers, 1000 streams, 1 MiB windows, one connection,
   * the HTTP/2 abuse limits above and {@link ConnectionTimers#serverDefaults()}.
   */
  public static TransportOptions defaults() {
    return new TransportOptions(
        DEFAULT_MAX_INBOUND_MESSAGE_SIZE,
        DEFAULT_MAX_HEADER_LIST_SIZE,
        DEFAULT_MAX_CONCURRENT_STREAMS,
        DEFAULT_INITIAL_WINDOW_SIZE,
        1,
        10_000,
        1_000,
        120_000,
        0,
        1_000,
        null,
        false,
        DEFAULT_MAX_QUEUED_CONTROL_FRAMES,
        DEFAULT_MAX_RST_FRAMES_PER_WINDOW,
        DEFAULT_RST_FRAMES_WINDOW_SECONDS,
        DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES,
        ConnectionTimers.serverDefaults(),
        DEFAULT_MAX_PENDING_OUTBOUND_BYTES);
  }

  /** These options with {@code timers} instead. */
  public TransportOptions withTimers(ConnectionTimers timers) {
    return new TransportOptions(maxInboundMessageSize, maxHeaderListSize, maxConcurrentStreams, initialWindowSize,
        connectionsPerAddress, connectTimeoutMillis, initialBackoffMillis, maxBackoffMillis, ioThreads,
        drainDelayMillis, tls, plaintextAlongsideTls, maxQueuedControlFrames, maxRstFramesPerWindow,
        rstFramesWindowSeconds, maxConsecutiveEmptyDataFrames, timers, maxPendingOutboundBytes);
  }

  /** These options with {@code maxPendingOutboundBytes} instead. */
  public TransportOptions withMaxPendingOutboundBytes(long maxPendingOutboundBytes) {
    return new TransportOptions(maxInboundMessageSize, maxHeaderListSize, maxConcurrentStreams, initialWindowSize,
        connectionsPerAddress, connectTimeoutMillis, initialBackoffMillis, maxBackoffMillis, ioThreads,
        drainDelayMillis, tls, plaintextAlongsideTls, maxQueuedControlFrames, maxRstFramesPerWindow,
        rstFramesWindowSeconds, maxConsecutiveEmptyDataFrames, timers, maxPendingOutboundBytes);
  }

  public TransportOptions {
    positive(maxInboundMessageSize, "maxInboundMessageSize");
    positive(maxHeaderListSize, "maxHeaderListSize");
    positive(maxConcurrentStreams, "maxConcurrentStreams");
    positive(initialWindowSize, "initialWindowSize");
    positive(connectionsPerAddress, "connectionsPerAddress");
    positive(connectTimeoutMillis, "connectTimeoutMillis");
    if (initialBackoffMillis <= 0 || maxBackoffMillis < initialBackoffMillis) {
      throw new IllegalArgumentException("backoff must satisfy 0 < initial <= max: "
          + initialBackoffMillis + ", " + maxBackoffMillis);
    }
    notNegative(ioThreads, "ioThreads");
    notNegative(maxQueuedControlFrames, "maxQueuedControlFrames");
    notNegative(maxRstFramesPerWindow, "maxRstFramesPerWindow");
    positive(rstFramesWindowSeconds, "rstFramesWindowSeconds");
    notNegative(maxConsecutiveEmptyDataFrames, "maxConsecutiveEmptyDataFrames");
    java.util.Objects.requireNonNull(timers, "timers");
    notNegative(maxPendingOutboundBytes, "maxPendingOutboundBytes");
  }

  /**
   * A builder's abuse limit: a count of at least 0, where 0 turns the limit off.
   *
   * @throws IllegalArgumentException if negative
   */
  public static int checkLimit(int count, String name) {
    notNegative(count, name);
    return count;
  }

  /**
   * The window of a rate limit in seconds: Netty counts in whole seconds, so the window must be one,
   * of at least 1 s.
   *
   * @throws IllegalArgumentException if it is not
   */
  public static int windowSeconds(Duration window) {
    if (window.isNegative() || window.getSeconds() < 1 || window.getNano() != 0
        || window.getSeconds() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("window must be a whole number of seconds, at least 1: " + window);
    }
    return (int) window.getSeconds();
  }

  private static void notNegative(long value, String name) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must be >= 0: " + value);
    }
  }

  private static void positive(long value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }
}
