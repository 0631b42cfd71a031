package io.triplerpc.internal.stream;

import io.triplerpc.Metadata;
import io.triplerpc.internal.wire.MessageEncoding;

/**
 * The parsed headers of a new server stream. Immutable.
 *
 * @param path the {@code :path}, such as {@code /grpc.testing.TestService/UnaryCall}
 * @param headers application headers (reserved ones removed)
 * @param timeoutNanos the client's {@code grpc-timeout}, or 0 for none
 * @param requestEncoding how the client compresses its messages, or null
 * @param acceptEncoding the client's {@code grpc-accept-encoding}, or null
 * @param httpSubtype null for a gRPC call; for an HTTP unary call, the codec subtype of its unframed
 *     body ({@code "json"} or {@code "proto"}), which the server decodes and encodes with
 */
public record InboundRequest(
    CharSequence path,
    Metadata headers,
    long timeoutNanos,
    MessageEncoding requestEncoding,
    CharSequence acceptEncoding,
    String httpSubtype) {

  /** A gRPC call. */
  public InboundRequest(
      CharSequence path, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding,
      CharSequence acceptEncoding) {
    this(path, headers, timeoutNanos, requestEncoding, acceptEncoding, null);
  }
}
