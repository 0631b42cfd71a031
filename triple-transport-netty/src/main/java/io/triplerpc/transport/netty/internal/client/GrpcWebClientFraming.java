package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.util.Locale;

/**
 * gRPC-Web (binary): gRPC's enveloped messages, the trailers as the body's last envelope (flag 0x80)
 * in {@code name: value} lines. One per stream: it keeps the response's encoding for compressed
 * trailers, and a status in the head, which ends a body without trailers (trailers-only).
 */
final class GrpcWebClientFraming extends EnvelopedClientFraming {

  private static final AsciiString APPLICATION_GRPC_WEB = AsciiString.cached("application/grpc-web");
  private static final AsciiString APPLICATION_GRPC_WEB_PROTO = AsciiString.cached("application/grpc-web+proto");
  private static final AsciiString APPLICATION_GRPC_WEB_JSON = AsciiString.cached("application/grpc-web+json");
  private static final AsciiString X_GRPC_WEB = AsciiString.cached("x-grpc-web");
  private static final AsciiString ONE = AsciiString.cached("1");

  /** The envelope flag of the trailers. */
  static final int TRAILERS_FLAG = 0x80;

  private final int maxInboundMessageSize;
  /** The messages' codec, {@code proto} or {@code json}. */
  private final String codec;
  /** The response's encoding, for compressed trailers; null until the head, or uncompressed. */
  private MessageEncoding responseEncoding;
  /** A status in the head, which ends the call if no trailers come; null if none. */
  private Status headStatus;
  private Metadata headMetadata;

  GrpcWebClientFraming(int maxInboundMessageSize, String codec) {
    super("GRPC_WEB");
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.codec = codec;
  }

  @Override
  public void addRequestHeaders(Http2Headers headers, long timeoutNanos, MessageEncoding encoding) {
    headers.add(GrpcHeaders.CONTENT_TYPE, "json".equals(codec) ? APPLICATION_GRPC_WEB_JSON : APPLICATION_GRPC_WEB_PROTO);
    headers.add(X_GRPC_WEB, ONE);
    GrpcClientFraming.addCallHeaders(headers, timeoutNanos, encoding);
  }

  @Override
  public void announceTimeout(Http2Headers headers, long timeoutNanos) {
    GrpcClientFraming.INSTANCE.announceTimeout(headers, timeoutNanos);
  }

  @Override
  public int endFrameFlag() {
    return TRAILERS_FLAG;
  }

  /** {@code application/grpc-web} (protobuf) or {@code application/grpc-web+codec}, in the request's codec. */
  @Override
  Status contentTypeProblem(CharSequence contentType) {
    return codecProblem(contentType, APPLICATION_GRPC_WEB, true, codec);
  }

  @Override
  AsciiString encodingHeader() {
    return GrpcHeaders.GRPC_ENCODING;
  }

  @Override
  void headRead(Http2Headers headers, Metadata metadata, MessageEncoding encoding) {
    responseEncoding = encoding;
    headStatus = GrpcHttp2Headers.statusOf(headers);
    headMetadata = metadata;
  }

  /** The trailers envelope: {@code name: value} lines separated by CRLF. */
  @Override
  public void endFrameRead(ByteBuf payload, boolean compressed, CallEvents call) {
    Http2Headers block = new DefaultHttp2Headers(false);
    try {
      String text = endFrameText(payload, compressed, responseEncoding, maxInboundMessageSize, call);
      if (text == null) {
        return;
      }
      for (String line : text.split("\r\n")) {
        if (line.isEmpty()) {
          continue;
        }
        int colon = line.indexOf(':');
        if (colon <= 0) {
          call.fail(Status.INTERNAL.withDescription("Malformed gRPC-Web trailer line: " + line));
          return;
        }
        block.add(AsciiString.of(line.substring(0, colon).trim().toLowerCase(Locale.ROOT)),
            line.substring(colon + 1).trim());
      }
    } finally {
      payload.release();
    }
    Status status = GrpcHttp2Headers.statusOf(block);
    call.end(status != null ? status
        : Status.INTERNAL.withDescription("Server ended the gRPC-Web response without grpc-status"),
        GrpcHttp2Headers.toMetadata(block));
  }

  /** A status in the head made it trailers-only, with an empty body. */
  @Override
  public void endedWithoutTrailers(CallEvents call) {
    if (headStatus != null) {
      call.close(headStatus, headMetadata);
    } else {
      super.endedWithoutTrailers(call);
    }
  }
}
