package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.internal.wire.PercentEncoding;
import io.triplerpc.internal.wire.StatusDetails;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * gRPC-Web ({@code application/grpc-web[+proto|+json]}, and {@code application/grpc-web-text}, the
 * same in base64): gRPC's messages, with the trailers as the body's last message, flagged 0x80, in
 * HTTP/1.1 header form ({@code grpc-status: 0\r\n...}), since browsers cannot read HTTP trailers.
 */
final class GrpcWebFraming implements WebFraming {

  private static final int TRAILERS_FLAG = 0x80;
  private static final Base64.Encoder BASE64 = Base64.getEncoder();
  private static final Base64.Encoder BASE64_UNPADDED = Base64.getEncoder().withoutPadding();

  private final AsciiString contentType;
  private final boolean text;
  /** gRPC-Web text: base64 characters of the request that do not yet make a group of four. */
  private final byte[] pending = new byte[4];
  private int pendingLength;

  GrpcWebFraming(AsciiString contentType, boolean text) {
    this.contentType = contentType;
    this.text = text;
  }

  @Override
  public boolean unframedRequest() {
    return false;
  }

  @Override
  public boolean headAtEnd() {
    return false;
  }

  @Override
  public boolean decodesRequest() {
    return text;
  }

  /**
   * gRPC-Web text: decodes each complete group of four base64 characters; a group may end in padding
   * anywhere, since a client encodes each message on its own.
   *
   * @throws IllegalArgumentException for characters that are not base64
   */
  @Override
  public ByteBuf requestBytes(ByteBuf data) {
    if (!text) {
      return data;
    }
    try {
      ByteBuf decoded = data.alloc().buffer((pendingLength + data.readableBytes()) / 4 * 3);
      while (data.isReadable()) {
        byte c = data.readByte();
        if (c == '\r' || c == '\n') {
          continue;
        }
        pending[pendingLength++] = c;
        if (pendingLength == 4) {
          decoded.writeBytes(Base64.getDecoder().decode(pending));
          pendingLength = 0;
        }
      }
      return decoded;
    } finally {
      data.release();
    }
  }

  @Override
  public Http2Headers head(Metadata headers, MessageEncoding encoding) {
    Http2Headers head = new DefaultHttp2Headers(false).status(GrpcHeaders.STATUS_200);
    head.add(GrpcHeaders.CONTENT_TYPE, contentType);
    if (encoding != null) {
      head.add(GrpcHeaders.GRPC_ENCODING, encoding.wireName());
    }
    head.add(GrpcHeaders.GRPC_ACCEPT_ENCODING, MessageEncoding.ACCEPT_ENCODING);
    GrpcHttp2Headers.addMetadata(head, headers);
    return head;
  }

  @Override
  public ByteBuf message(ByteBuf framed) {
    return text ? toBase64(framed) : framed;
  }

  @Override
  public End end(Status status, Metadata headers, MessageEncoding encoding, ByteBuf message, Metadata trailers,
      boolean headSent, ByteBufAllocator alloc) {
    if (message != null) {
      message.release();
    }
    StringBuilder block = new StringBuilder(64)
        .append("grpc-status: ").append(status.code().value()).append("\r\n");
    if (status.description() != null) {
      block.append("grpc-message: ").append(PercentEncoding.encode(status.description())).append("\r\n");
    }
    if (!status.details().isEmpty()) {
      block.append("grpc-status-details-bin: ").append(BASE64_UNPADDED.encodeToString(StatusDetails.encode(status)))
          .append("\r\n");
    }
    for (Map.Entry<String, List<String>> entry : ConnectWire.textValues(trailers).entrySet()) {
      String key = entry.getKey().toLowerCase(Locale.ROOT);
      if (GrpcHeaders.isReserved(key) || (!status.details().isEmpty() && key.equals("grpc-status-details-bin"))) {
        continue;
      }
      for (String value : entry.getValue()) {
        block.append(key).append(": ").append(value).append("\r\n");
      }
    }
    byte[] bytes = block.toString().getBytes(StandardCharsets.UTF_8);
    ByteBuf frame = alloc.buffer(GrpcHeaders.MESSAGE_HEADER_LENGTH + bytes.length)
        .writeByte(TRAILERS_FLAG)
        .writeInt(bytes.length)
        .writeBytes(bytes);
    return new End(headSent ? null : head(headers, null), message(frame));
  }

  private static ByteBuf toBase64(ByteBuf bytes) {
    try {
      byte[] encoded = BASE64.encode(ByteBufUtil.getBytes(bytes));
      return bytes.alloc().buffer(encoded.length).writeBytes(encoded);
    } finally {
      bytes.release();
    }
  }
}
