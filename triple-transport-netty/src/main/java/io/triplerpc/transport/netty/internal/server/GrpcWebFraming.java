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
import io.triplerpc.internal.wire.PercentEncoding;
import io.triplerpc.internal.wire.StatusDetails;
import java.nio.ByteBuffer;
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
  public String protocol() {
    return "grpc-web";
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
      byte[] chars = new byte[pendingLength + data.readableBytes()];
      System.arraycopy(pending, 0, chars, 0, pendingLength);
      int count = pendingLength;
      while (data.isReadable()) {
        byte c = data.readByte();
        if (c != '\r' && c != '\n') {
          chars[count++] = c;
        }
      }
      int whole = count - count % 4;
      ByteBuf decoded = data.alloc().buffer(whole / 4 * 3);
      try {
        // Decoded in runs, each ending with a padded group (or at the last whole group).
        int start = 0;
        for (int group = 0; group < whole; group += 4) {
          if (chars[group + 3] == '=') {
            decodeRun(decoded, chars, start, group + 4);
            start = group + 4;
          }
        }
        decodeRun(decoded, chars, start, whole);
      } catch (IllegalArgumentException malformed) {
        // Found by ServerInputFuzzTest: the buffer of a body refused as malformed was never released.
        decoded.release();
        throw malformed;
      }
      pendingLength = count - whole;
      System.arraycopy(chars, whole, pending, 0, pendingLength);
      return decoded;
    } finally {
      data.release();
    }
  }

  private static void decodeRun(ByteBuf into, byte[] chars, int start, int end) {
    if (end > start) {
      into.writeBytes(Base64.getDecoder().decode(ByteBuffer.wrap(chars, start, end - start)));
    }
  }

  @Override
  public Http2Headers head(Metadata headers, MessageEncoding encoding) {
    return WebFraming.streamHead(contentType, GrpcHeaders.GRPC_ENCODING, GrpcHeaders.GRPC_ACCEPT_ENCODING, headers,
        encoding);
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

  /** {@code bytes} in padded base64, on one line, in one copy. */
  private static ByteBuf toBase64(ByteBuf bytes) {
    try {
      return io.netty.handler.codec.base64.Base64.encode(bytes, false);
    } finally {
      bytes.release();
    }
  }
}
