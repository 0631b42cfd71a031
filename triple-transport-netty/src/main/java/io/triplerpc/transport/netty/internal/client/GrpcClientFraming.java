package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.GrpcTimeout;
import io.triplerpc.internal.wire.MessageEncoding;

/**
 * gRPC, as the gRPC HTTP/2 spec says: enveloped messages both ways, the call's end in a trailers block
 * (or a trailers-only head). Holds no state: one instance serves every stream.
 */
final class GrpcClientFraming extends EnvelopedClientFraming {

  /** Protobuf's binary encoding: {@code application/grpc}. */
  static final GrpcClientFraming INSTANCE = new GrpcClientFraming(GrpcHeaders.APPLICATION_GRPC);
  /** Protobuf's JSON mapping: {@code application/grpc+json}. */
  static final GrpcClientFraming JSON = new GrpcClientFraming(GrpcHeaders.APPLICATION_GRPC_JSON);

  private static final AsciiString ACCEPT_ENCODING = AsciiString.cached(MessageEncoding.ACCEPT_ENCODING);

  /** The request's content type, which names the codec. */
  private final AsciiString contentType;

  private GrpcClientFraming(AsciiString contentType) {
    super("GRPC");
    this.contentType = contentType;
  }

  @Override
  public void addRequestHeaders(Http2Headers headers, long timeoutNanos, MessageEncoding encoding) {
    headers.add(GrpcHeaders.CONTENT_TYPE, contentType);
    headers.add(GrpcHeaders.TE, GrpcHeaders.TRAILERS);
    addCallHeaders(headers, timeoutNanos, encoding);
  }

  /** gRPC's headers after the content type, which gRPC-Web sends too: encodings and deadline. */
  static void addCallHeaders(Http2Headers headers, long timeoutNanos, MessageEncoding encoding) {
    headers.add(GrpcHeaders.GRPC_ACCEPT_ENCODING, ACCEPT_ENCODING);
    if (timeoutNanos > 0) {
      headers.add(GrpcHeaders.GRPC_TIMEOUT, GrpcTimeout.encode(timeoutNanos));
    }
    if (encoding != null) {
      headers.add(GrpcHeaders.GRPC_ENCODING, encoding.wireName());
    }
  }

  @Override
  public void announceTimeout(Http2Headers headers, long timeoutNanos) {
    headers.set(GrpcHeaders.GRPC_TIMEOUT, GrpcTimeout.encode(timeoutNanos));
  }

  @Override
  public int endFrameFlag() {
    return 0;
  }

  /** Any gRPC content type: a response in another codec fails as its message does not decode. */
  @Override
  Status contentTypeProblem(CharSequence contentType) {
    return GrpcHeaders.isGrpcContentType(contentType) ? null : notThisProtocol(contentType);
  }

  @Override
  AsciiString encodingHeader() {
    return GrpcHeaders.GRPC_ENCODING;
  }

  @Override
  boolean trailersOnlyWithAnyStatus(CharSequence contentType) {
    return GrpcHeaders.isGrpcContentType(contentType);
  }

  /** Messages only: the end comes in trailers, so a body that ends the stream is malformed. */
  @Override
  public void dataRead(ByteBuf data, boolean endOfStream, CallEvents call) {
    call.framed(data, false);
    if (endOfStream) {
      call.fail(Status.INTERNAL.withDescription("Server ended the stream on DATA, without trailers"));
    }
  }
}
