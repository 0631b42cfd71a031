package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;

/**
 * gRPC on an exchange that {@linkplain HttpExchange#carriesTrailers carries trailers} (HTTP/3): the head,
 * the length-prefixed messages as they are, and the status in trailers, or alone in a trailers-only
 * response. HTTP/2's gRPC keeps its own path ({@link GrpcProtocol}, {@link NettyServerStream}), batched
 * through the write queue; this one writes what {@link GrpcProtocol} does, in the web protocols' shape.
 */
final class GrpcFraming implements WebFraming {

  private final AsciiString contentType;

  /** @param contentType {@code application/grpc} or {@code application/grpc+json} */
  GrpcFraming(AsciiString contentType) {
    this.contentType = contentType;
  }

  @Override
  public String protocol() {
    return "grpc";
  }

  @Override
  public Http2Headers head(Metadata headers, MessageEncoding encoding) {
    return WebFraming.streamHead(contentType, GrpcHeaders.GRPC_ENCODING, GrpcHeaders.GRPC_ACCEPT_ENCODING, headers,
        encoding);
  }

  @Override
  public End end(Status status, Metadata headers, MessageEncoding encoding, ByteBuf message, Metadata trailers,
      boolean headSent, ByteBufAllocator alloc) {
    if (message != null) {
      message.release();
    }
    Http2Headers block = new DefaultHttp2Headers(false, 4 + trailers.size());
    if (!headSent) {
      // Trailers-only: the one header block is also the response's first.
      block.status(GrpcHeaders.STATUS_200);
      block.add(GrpcHeaders.CONTENT_TYPE, contentType);
      if (headers != null) {
        GrpcHttp2Headers.addMetadata(block, headers);
      }
    }
    GrpcHttp2Headers.addMetadata(block, trailers);
    GrpcHttp2Headers.addStatus(block, status);
    return new End(null, null, block);
  }
}
