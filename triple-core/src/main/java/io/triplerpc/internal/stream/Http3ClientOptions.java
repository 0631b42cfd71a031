package io.triplerpc.internal.stream;

/**
 * How a client calls over HTTP/3. Immutable.
 *
 * @param fallbackAfterMillis how long the QUIC handshake may take before the client calls over HTTP/2 on
 *     TCP instead (same host and port); 0 for never: every call goes over HTTP/3 or fails
 */
public record Http3ClientOptions(long fallbackAfterMillis) {

  /** HTTP/3 only, no fallback. */
  public static final Http3ClientOptions ONLY = new Http3ClientOptions(0);

  public Http3ClientOptions {
    Http2Limits.checkLimit(fallbackAfterMillis, "http3 fallbackAfter");
  }

  /** Whether the client falls back to HTTP/2 over TCP when HTTP/3 cannot connect in time. */
  public boolean fallsBack() {
    return fallbackAfterMillis > 0;
  }
}
