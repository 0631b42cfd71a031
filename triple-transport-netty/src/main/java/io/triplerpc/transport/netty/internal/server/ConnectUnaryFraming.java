package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.nio.charset.StandardCharsets;

/**
 * Connect unary (and the curl calls it is): the request body is the message, unframed; the response is
 * one head and one body, written when the call ends, since the HTTP status tells success from error.
 * Success: 200, the message, {@code content-encoding} if compressed, trailers as {@code trailer-}
 * headers. Error: the HTTP status of its code and the JSON error with its details.
 */
final class ConnectUnaryFraming implements WebFraming {

  private final AsciiString contentType;

  /** @param codec the codec of the request's content type, which the response uses too */
  ConnectUnaryFraming(String codec) {
    this.contentType = ConnectWire.unaryContentTypeOf(codec);
  }

  @Override
  public String protocol() {
    return "connect";
  }

  @Override
  public boolean unframedRequest() {
    return true;
  }

  @Override
  public boolean headAtEnd() {
    return true;
  }

  @Override
  public Http2Headers head(Metadata headers, MessageEncoding encoding) {
    throw new UnsupportedOperationException("A Connect unary response has its head written at its end");
  }

  @Override
  public End end(Status status, Metadata headers, MessageEncoding encoding, ByteBuf message, Metadata trailers,
      boolean headSent, ByteBufAllocator alloc) {
    if (status.isOk() && message == null) {
      status = Status.INTERNAL.withDescription("The service completed without a response");
    }
    if (!status.isOk()) {
      if (message != null) {
        message.release();
      }
      return error(ConnectWire.httpStatusOf(status.code()), status, headers, trailers, alloc);
    }
    boolean compressed = (message.getByte(message.readerIndex()) & 1) != 0;
    message.skipBytes(GrpcHeaders.MESSAGE_HEADER_LENGTH);
    Http2Headers head = new DefaultHttp2Headers(false).status(GrpcHeaders.STATUS_200);
    head.add(GrpcHeaders.CONTENT_TYPE, contentType);
    if (compressed && encoding != null) {
      head.add(ConnectWire.CONTENT_ENCODING, encoding.wireName());
    }
    addMetadata(head, headers, trailers);
    return new End(head, message);
  }

  /** An error response: {@code httpStatus}, {@code status}'s JSON, and the call's headers and trailers (may be null). */
  static End error(int httpStatus, Status status, Metadata headers, Metadata trailers, ByteBufAllocator alloc) {
    Http2Headers head = new DefaultHttp2Headers(false).status(AsciiString.of(Integer.toString(httpStatus)));
    head.add(GrpcHeaders.CONTENT_TYPE, ConnectWire.APPLICATION_JSON);
    addMetadata(head, headers, trailers);
    ByteBuf body = alloc.buffer();
    body.writeCharSequence(ConnectWire.errorJson(status) + "\n", StandardCharsets.UTF_8);
    return new End(head, body);
  }

  private static void addMetadata(Http2Headers head, Metadata headers, Metadata trailers) {
    GrpcHttp2Headers.addMetadata(head, headers);
    GrpcHttp2Headers.addMetadata(head, trailers, ConnectWire.TRAILER_PREFIX);
  }
}
