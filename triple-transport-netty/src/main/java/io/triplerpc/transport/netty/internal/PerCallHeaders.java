package io.triplerpc.transport.netty.internal;

import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.util.AsciiString;

/**
 * Keeps the headers whose value is new on every call out of one connection's HPACK table: a deadline's
 * time left, and the ids of the trace formats in use (W3C trace context, B3, Jaeger, SkyWalking,
 * OpenCensus). Indexed, each value would be used once: at about 100 bytes an entry a 4 KiB table is
 * rewritten every 40 calls, pushing out the entries that later calls reuse (path, authority, user
 * agent), which then go out in full again, and the peer's decoder pays the same to insert and evict.
 * So they go out as never-indexed literals (Netty's encoder has no other way to leave a header out),
 * except the first of each name on the connection: indexed once, it gives the later ones a name
 * reference instead of the name spelled out. Belongs to one connection's encoder, on its event loop.
 */
public final class PerCallHeaders implements Http2HeadersEncoder.SensitivityDetector {

  private static final AsciiString GRPC_TIMEOUT = AsciiString.cached("grpc-timeout");
  private static final AsciiString TRACEPARENT = AsciiString.cached("traceparent");
  private static final AsciiString B3 = AsciiString.cached("b3");
  private static final AsciiString B3_TRACE_ID = AsciiString.cached("x-b3-traceid");
  private static final AsciiString B3_SPAN_ID = AsciiString.cached("x-b3-spanid");
  private static final AsciiString B3_PARENT_SPAN_ID = AsciiString.cached("x-b3-parentspanid");
  private static final AsciiString JAEGER = AsciiString.cached("uber-trace-id");
  private static final AsciiString SKYWALKING = AsciiString.cached("sw8");
  private static final AsciiString OPENCENSUS = AsciiString.cached("grpc-trace-bin");

  /** The names indexed once on this connection, a bit each ({@link #bitOf}). */
  private int indexedOnce;

  /** Whether {@code name} is one of them; names are lower case, as HTTP/2 has them. */
  static boolean isPerCall(CharSequence name) {
    return bitOf(name) != 0;
  }

  /** The bit of a per-call header's name, or 0 for any other name. */
  private static int bitOf(CharSequence name) {
    // The encoder asks for every header of every call: one length switch settles nearly all of them.
    switch (name.length()) {
      case 2:
        return B3.contentEquals(name) ? 1 : 0;
      case 3:
        return SKYWALKING.contentEquals(name) ? 1 << 1 : 0;
      case 11:
        return TRACEPARENT.contentEquals(name) ? 1 << 2 : B3_SPAN_ID.contentEquals(name) ? 1 << 3 : 0;
      case 12:
        return GRPC_TIMEOUT.contentEquals(name) ? 1 << 4 : B3_TRACE_ID.contentEquals(name) ? 1 << 5 : 0;
      case 13:
        return JAEGER.contentEquals(name) ? 1 << 6 : 0;
      case 14:
        return OPENCENSUS.contentEquals(name) ? 1 << 7 : 0;
      case 17:
        return B3_PARENT_SPAN_ID.contentEquals(name) ? 1 << 8 : 0;
      default:
        return 0;
    }
  }

  @Override
  public boolean isSensitive(CharSequence name, CharSequence value) {
    int bit = bitOf(name);
    if (bit == 0) {
      return false;
    }
    if ((indexedOnce & bit) == 0) {
      indexedOnce |= bit;
      return false;
    }
    return true;
  }
}
