package io.triplerpc.internal.stream;

/**
 * How a client calls over HTTP/3. Immutable.
 *
 * @param fallbackAfterMillis how long the QUIC handshake may take before the client calls over HTTP/2 on
 *     TCP instead (same host and port); 0 for never: every call goes over HTTP/3 or fails
 * @param fromAltSvc whether calls go over HTTP/2 until a response advertises HTTP/3 ({@code Alt-Svc}),
 *     rather than over HTTP/3 from the start
 */
public record Http3ClientOptions(long fallbackAfterMillis, boolean fromAltSvc) {

  /** HTTP/3 only, no fallback. */
  public static final Http3ClientOptions ONLY = new Http3ClientOptions(0, false);

  /** How long a client that follows {@code Alt-Svc} waits for a QUIC handshake before it keeps to TCP. */
  public static final long ALT_SVC_FALLBACK_MILLIS = 2_000;

  /** HTTP/3 from the start, falling back after {@code fallbackAfterMillis} (0: never). */
  public Http3ClientOptions(long fallbackAfterMillis) {
    this(fallbackAfterMillis, false);
  }

  public Http3ClientOptions {
    Http2Limits.checkLimit(fallbackAfterMillis, "http3 fallbackAfter");
    if (fromAltSvc && fallbackAfterMillis == 0) {
      throw new IllegalArgumentException("following Alt-Svc needs a fallback time: its server may stop serving HTTP/3");
    }
  }

  /** Whether the client falls back to HTTP/2 over TCP when HTTP/3 cannot connect in time. */
  public boolean fallsBack() {
    return fallbackAfterMillis > 0;
  }
}
