package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.rest.RestErrors;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.nio.charset.StandardCharsets;

/**
 * A server-streaming REST call ({@code google.api.http} on a server-streaming method), as grpc-gateway's
 * {@code ForwardResponseStream} answers it: the head (200, {@code application/json}, response headers as
 * {@code grpc-metadata-}) goes out with the first message; each message is a line of newline-delimited JSON,
 * {@code {"result":...}} (the method's response codec writes the line); a failure after the first message is a
 * last line {@code {"error":<google.rpc.Status>}} under the 200 already sent; a failure before the first message
 * is that one line under the HTTP status of its code. An empty stream is 200 with no body. Trailers are not
 * sent, as grpc-gateway sends none on a stream: the status of a failed stream is in its error line. The body is
 * chunked on HTTP/1.1 and DATA frames on HTTP/2, each message flushed as the service writes it.
 */
final class RestStreamFraming implements WebFraming {

  static final RestStreamFraming INSTANCE = new RestStreamFraming();

  private static final String METADATA_PREFIX = "grpc-metadata-";

  private RestStreamFraming() {}

  @Override
  public String protocol() {
    return "rest";
  }

  @Override
  public boolean unframedRequest() {
    return true;
  }

  @Override
  public boolean headWithFirstMessage() {
    return true;
  }

  @Override
  public Http2Headers head(Metadata headers, MessageEncoding encoding) {
    Http2Headers head = new DefaultHttp2Headers(false).status(GrpcHeaders.STATUS_200);
    head.add(GrpcHeaders.CONTENT_TYPE, ConnectWire.APPLICATION_JSON);
    GrpcHttp2Headers.addMetadata(head, headers, METADATA_PREFIX);
    return head;
  }

  @Override
  public ByteBuf message(ByteBuf framed) {
    return framed.skipBytes(GrpcHeaders.MESSAGE_HEADER_LENGTH);
  }

  @Override
  public End end(Status status, Metadata headers, MessageEncoding encoding, ByteBuf message, Metadata trailers,
      boolean headSent, ByteBufAllocator alloc) {
    if (message != null) {
      message.release();
    }
    if (status.isOk()) {
      if (headSent) {
        return new End(null, Unpooled.EMPTY_BUFFER);
      }
      // No message: grpc-gateway sets no content type either, since it sets it with the first message.
      Http2Headers head = new DefaultHttp2Headers(false).status(GrpcHeaders.STATUS_200);
      GrpcHttp2Headers.addMetadata(head, headers, METADATA_PREFIX);
      return new End(head, Unpooled.EMPTY_BUFFER);
    }
    Http2Headers head = null;
    if (!headSent) {
      // Before the first message the status is still free: the error's own, as grpc-gateway answers.
      head = new DefaultHttp2Headers(false).status(AsciiString.of(Integer.toString(RestErrors.httpStatus(status.code()))));
      head.add(GrpcHeaders.CONTENT_TYPE, ConnectWire.APPLICATION_JSON);
      GrpcHttp2Headers.addMetadata(head, headers, METADATA_PREFIX);
    }
    String line = RestErrors.streamErrorLine(status);
    ByteBuf body = alloc.buffer(line.length());
    body.writeCharSequence(line, StandardCharsets.UTF_8);
    return new End(head, body);
  }

  @Override
  public End refused(int httpStatus, Status status, ByteBufAllocator alloc) {
    return RestFraming.INSTANCE.refused(httpStatus, status, alloc);
  }
}
