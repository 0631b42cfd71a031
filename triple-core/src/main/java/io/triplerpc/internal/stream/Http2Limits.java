package io.triplerpc.internal.stream;

import java.time.Duration;

/**
 * What one HTTP/2 connection accepts from its peer and holds for it, on either side. Immutable; the
 * defaults are {@link #CLIENT_DEFAULTS} and {@link #SERVER_DEFAULTS}, and the builders' Javadoc
 * states them.
 *
 * @param maxInboundMessageSize largest message accepted, in bytes
 * @param maxHeaderListSize largest header block accepted (SETTINGS_MAX_HEADER_LIST_SIZE)
 * @param initialWindowSize the flow-control window each stream and the connection start with
 *     (SETTINGS_INITIAL_WINDOW_SIZE)
 * @param maxWindowSize the largest those windows grow to as the connection's measured
 *     bandwidth-delay product asks; at most {@code initialWindowSize} for windows that never grow
 * @param maxQueuedControlFrames control frames (PING and SETTINGS acknowledgements, RST_STREAM) a
 *     connection may hold that the socket has not yet taken; past it the connection closes
 *     (CVE-2019-9512, -9515); 0 for no limit
 * @param maxRstFramesPerWindow RST_STREAM frames a connection may send (CVE-2025-55163), and on a
 *     client receive, per {@code rstFramesWindowSeconds}; past it the connection goes away with
 *     ENHANCE_YOUR_CALM; 0 for no limit. A server judges the resets it receives by their share of
 *     its streams instead (rapid reset, CVE-2023-44487)
 * @param rstFramesWindowSeconds the window of {@code maxRstFramesPerWindow}, in seconds
 * @param maxConsecutiveEmptyDataFrames empty DATA frames without END_STREAM a peer may send in a
 *     row; one more ends the connection with ENHANCE_YOUR_CALM; 0 for no limit
 * @param maxPendingOutboundBytes message bytes a connection may hold that its peer has not yet
 *     taken (no flow-control window, or a socket that does not drain); past it, the stream being
 *     written is reset, and a peer that still does not read loses the connection; 0 for no limit
 */
public record Http2Limits(
    int maxInboundMessageSize,
    int maxHeaderListSize,
    int initialWindowSize,
    int maxWindowSize,
    int maxQueuedControlFrames,
    int maxRstFramesPerWindow,
    int rstFramesWindowSeconds,
    int maxConsecutiveEmptyDataFrames,
    long maxPendingOutboundBytes) {

  /**
   * A server's: 4 MiB messages, 8 KiB headers, 1 MiB windows growing up to 8 MiB (grpc-java's
   * bounds); Netty's HTTP/2 builder's abuse limits
   * (10,000 queued control frames, as grpc-java's server and Go; 200 resets per 30 s; 2 empty DATA
   * frames); 64 MiB held for a peer that does not read (sixteen maximum-size messages).
   */
  public static final Http2Limits SERVER_DEFAULTS =
      new Http2Limits(4 << 20, 8 << 10, 1 << 20, 8 << 20, 10_000, 200, 30, 2, 64L << 20);

  /** A client's: a server's, but no reset-rate limit (its streams are the client's own to reset). */
  public static final Http2Limits CLIENT_DEFAULTS = SERVER_DEFAULTS.withMaxRstFramesPerWindow(0);

  public Http2Limits {
    positive(maxInboundMessageSize, "maxInboundMessageSize");
    positive(maxHeaderListSize, "maxHeaderListSize");
    positive(initialWindowSize, "initialWindowSize");
    positive(maxWindowSize, "maxWindowSize");
    checkLimit(maxQueuedControlFrames, "maxQueuedControlFrames");
    checkLimit(maxRstFramesPerWindow, "maxRstFramesPerWindow");
    positive(rstFramesWindowSeconds, "rstFramesWindowSeconds");
    checkLimit(maxConsecutiveEmptyDataFrames, "maxConsecutiveEmptyDataFrames");
    checkLimit(maxPendingOutboundBytes, "maxPendingOutboundBytes");
  }

  /** These limits with {@code maxRstFramesPerWindow} instead. */
  public Http2Limits withMaxRstFramesPerWindow(int frames) {
    return new Http2Limits(maxInboundMessageSize, maxHeaderListSize, initialWindowSize, maxWindowSize, maxQueuedControlFrames,
        frames, rstFramesWindowSeconds, maxConsecutiveEmptyDataFrames, maxPendingOutboundBytes);
  }

  /** These limits with {@code maxPendingOutboundBytes} instead. */
  public Http2Limits withMaxPendingOutboundBytes(long bytes) {
    return new Http2Limits(maxInboundMessageSize, maxHeaderListSize, initialWindowSize, maxWindowSize, maxQueuedControlFrames,
        maxRstFramesPerWindow, rstFramesWindowSeconds, maxConsecutiveEmptyDataFrames, bytes);
  }

  /**
   * A builder's limit: a count of at least 0, where 0 turns the limit off.
   *
   * @throws IllegalArgumentException if negative
   */
  public static int checkLimit(int count, String name) {
    checkLimit((long) count, name);
    return count;
  }

  /**
   * A builder's limit: at least 0, where 0 turns the limit off.
   *
   * @throws IllegalArgumentException if negative
   */
  public static long checkLimit(long count, String name) {
    if (count < 0) {
      throw new IllegalArgumentException(name + " must be >= 0: " + count);
    }
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

  static void positive(long value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }
}
