package io.triplerpc.internal.stream;

import io.triplerpc.Metadata;
import io.triplerpc.internal.rest.RestRequest;
import io.triplerpc.internal.wire.MessageEncoding;

/**
 * The parsed headers of a new server stream. Immutable.
 *
 * @param path the {@code :path}, such as {@code /grpc.testing.TestService/UnaryCall}
 * @param headers application headers (reserved ones removed)
 * @param timeoutNanos the client's timeout ({@code grpc-timeout}, {@code connect-timeout-ms}), or 0 for none
 * @param requestEncoding how the client compresses its messages, or null
 * @param acceptEncoding the encodings the client accepts for responses (comma-separated), or null
 * @param codec the codec subtype the content type names ({@code "json"}, {@code "proto"}), which the
 *     server decodes and encodes messages with; null for the method's own codec
 * @param unframed whether the request body is one message without the 5-byte prefix (Connect unary,
 *     curl): only unary methods take it
 * @param httpGet whether the call came as an HTTP GET (Connect): only idempotent methods take it
 * @param rest the REST binding the request matched, whose codecs read the body with the path and query,
 *     or null for a call of the RPC protocols
 */
public record InboundRequest(
    CharSequence path,
    Metadata headers,
    long timeoutNanos,
    MessageEncoding requestEncoding,
    CharSequence acceptEncoding,
    String codec,
    boolean unframed,
    boolean httpGet,
    RestRequest rest) {

  /** A call of the RPC protocols. */
  public InboundRequest(CharSequence path, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding,
      CharSequence acceptEncoding, String codec, boolean unframed, boolean httpGet) {
    this(path, headers, timeoutNanos, requestEncoding, acceptEncoding, codec, unframed, httpGet, null);
  }

  /** A gRPC call in the method's own codec. */
  public InboundRequest(
      CharSequence path, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding,
      CharSequence acceptEncoding) {
    this(path, headers, timeoutNanos, requestEncoding, acceptEncoding, null, false, false, null);
  }
}
