package io.triplerpc.internal.stream;

import io.triplerpc.TlsConfig;

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
 * @param drainDelayMillis server only: time between the two GOAWAY frames of a graceful shutdown
 * @param tls transport security, or null for cleartext
 * @param plaintextAlongsideTls server only: whether a server with {@code tls} also serves cleartext
 *     connections on its port
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
    boolean plaintextAlongsideTls) {

  public static final int DEFAULT_MAX_INBOUND_MESSAGE_SIZE = 4 * 1024 * 1024;
  public static final int DEFAULT_MAX_HEADER_LIST_SIZE = 8 * 1024;
  public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 1000;
  public static final int DEFAULT_INITIAL_WINDOW_SIZE = 1024 * 1024;

  /** The defaults: 4 MiB messages, 8 KiB headers, 1000 streams, 1 MiB windows, one connection. */
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
        false);
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
    if (ioThreads < 0) {
      throw new IllegalArgumentException("ioThreads must be >= 0: " + ioThreads);
    }
  }

  private static void positive(long value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }
}
