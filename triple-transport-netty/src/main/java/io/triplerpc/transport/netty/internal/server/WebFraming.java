package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;

/**
 * How one web protocol frames a call on an {@link HttpExchange}: Connect unary
 * ({@link ConnectUnaryFraming}), Connect streaming ({@link ConnectStreamFraming}), gRPC-Web
 * ({@link GrpcWebFraming}), REST ({@link RestFraming}, {@link RestStreamFraming}), or gRPC on an exchange
 * with trailers ({@link GrpcFraming}, HTTP/3). One instance per call (gRPC-Web text keeps base64 state);
 * event loop only.
 */
interface WebFraming {

  /** Whether the request body is one message without the 5-byte prefix. */
  default boolean unframedRequest() {
    return false;
  }

  /** The protocol, as observers name it: {@code connect} or {@code grpc-web}. */
  String protocol();

  /** Whether the response head waits for the end of the call (its status and trailers are in it). */
  default boolean headAtEnd() {
    return false;
  }

  /**
   * Whether the response head waits for the first message (REST streams, whose status is an error's if the call
   * fails before it); {@link #end} then gets the headers when no message went out.
   */
  default boolean headWithFirstMessage() {
    return false;
  }

  /**
   * Whether {@link #requestBytes} changes the number of bytes (gRPC-Web text): then the body is
   * acknowledged to flow control as it arrives, since the deframer counts the decoded bytes.
   */
  default boolean decodesRequest() {
    return false;
  }

  /** The request body's bytes as they arrived, turned into what the deframer reads; owns {@code data}. */
  default ByteBuf requestBytes(ByteBuf data) {
    return data;
  }

  /** The head of a response whose messages follow: {@code :status} 200, content type, {@code headers}. */
  Http2Headers head(Metadata headers, MessageEncoding encoding);

  /** A framed response message (prefix included) as it goes on the wire; owns {@code framed}. */
  default ByteBuf message(ByteBuf framed) {
    return framed;
  }

  /**
   * The end of the response.
   *
   * @param headers the response headers not sent yet (head at end, or none were written), or null
   * @param encoding the response encoding with those headers, or null
   * @param message the one message a head-at-end response held, owned by this method; or null
   * @param headSent whether {@link #head} went out already
   */
  End end(Status status, Metadata headers, MessageEncoding encoding, ByteBuf message, Metadata trailers,
      boolean headSent, ByteBufAllocator alloc);

  /**
   * The answer to an unframed call refused before its service ran (too large, over a limit): in the
   * protocol's error form under {@code httpStatus}. Connect's JSON error by default.
   */
  default End refused(int httpStatus, Status status, ByteBufAllocator alloc) {
    return ConnectUnaryFraming.error(httpStatus, status, null, null, alloc);
  }

  /**
   * The head of a streaming response: {@code :status} 200, {@code contentType}, the encoding of its
   * messages under {@code encodingHeader} (if compressed) and the ones accepted under {@code acceptHeader},
   * then {@code headers}.
   */
  static Http2Headers streamHead(CharSequence contentType, CharSequence encodingHeader, CharSequence acceptHeader,
      Metadata headers, MessageEncoding encoding) {
    Http2Headers head = new DefaultHttp2Headers(false).status(GrpcHeaders.STATUS_200);
    head.add(GrpcHeaders.CONTENT_TYPE, contentType);
    if (encoding != null) {
      head.add(encodingHeader, encoding.wireName());
    }
    head.add(acceptHeader, MessageEncoding.ACCEPT_ENCODING);
    GrpcHttp2Headers.addMetadata(head, headers);
    return head;
  }

  /**
   * What ends a response: a head (null if it went out already), the body's last bytes (null for none, with
   * trailers only), and trailers (null but for gRPC, whose status they carry).
   */
  record End(Http2Headers head, ByteBuf body, Http2Headers trailers) {

    End(Http2Headers head, ByteBuf body) {
      this(head, body, null);
    }
  }
}
