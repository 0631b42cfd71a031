package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import java.nio.charset.StandardCharsets;

/**
 * Connect streaming ({@code application/connect+proto|json}): request and response messages carry
 * the 5-byte prefix, the response is 200 whatever the outcome, and it ends with a message flagged
 * {@link ConnectWire#END_STREAM_FLAG} holding the JSON of the error, if any, and the trailers.
 */
final class ConnectStreamFraming implements WebFraming {

  private final AsciiString contentType;

  ConnectStreamFraming(AsciiString contentType) {
    this.contentType = contentType;
  }

  @Override
  public String protocol() {
    return "connect";
  }

  @Override
  public Http2Headers head(Metadata headers, MessageEncoding encoding) {
    return WebFraming.streamHead(contentType, ConnectWire.CONNECT_CONTENT_ENCODING, ConnectWire.CONNECT_ACCEPT_ENCODING,
        headers, encoding);
  }

  @Override
  public End end(Status status, Metadata headers, MessageEncoding encoding, ByteBuf message, Metadata trailers,
      boolean headSent, ByteBufAllocator alloc) {
    if (message != null) {
      message.release();
    }
    byte[] json = ConnectWire.endStreamJson(status, trailers).getBytes(StandardCharsets.UTF_8);
    ByteBuf end = alloc.buffer(GrpcHeaders.MESSAGE_HEADER_LENGTH + json.length)
        .writeByte(ConnectWire.END_STREAM_FLAG)
        .writeInt(json.length)
        .writeBytes(json);
    return new End(headSent ? null : head(headers, null), end);
  }
}
