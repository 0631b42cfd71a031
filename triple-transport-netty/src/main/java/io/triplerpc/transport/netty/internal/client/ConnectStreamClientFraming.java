package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Connect streaming: enveloped messages both ways, the body ended by a JSON end-of-stream envelope
 * (flag 0x02) that holds the error, if any, and the trailers. One per stream: it keeps the
 * response's encoding for a compressed end of stream.
 */
final class ConnectStreamClientFraming extends EnvelopedClientFraming {

  private static final AsciiString APPLICATION_CONNECT = AsciiString.cached("application/connect");
  private static final AsciiString ONE = AsciiString.cached("1");
  private static final AsciiString ACCEPT_ENCODING = AsciiString.cached(MessageEncoding.ACCEPT_ENCODING);

  /** The envelope flag of the end-of-stream message. */
  static final int END_STREAM_FLAG = 0x02;

  private final int maxInboundMessageSize;
  /** The messages' codec, {@code proto} or {@code json}. */
  private final String codec;
  /** The response's encoding, for a compressed end of stream; null until the head, or uncompressed. */
  private MessageEncoding responseEncoding;

  ConnectStreamClientFraming(int maxInboundMessageSize, String codec) {
    super("CONNECT_STREAM");
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.codec = codec;
  }

  @Override
  public void addRequestHeaders(Http2Headers headers, long timeoutNanos, MessageEncoding encoding) {
    headers.add(GrpcHeaders.CONTENT_TYPE,
        "json".equals(codec) ? ConnectWire.APPLICATION_CONNECT_JSON : ConnectWire.APPLICATION_CONNECT_PROTO);
    headers.add(ConnectWire.CONNECT_PROTOCOL_VERSION, ONE);
    headers.add(ConnectWire.CONNECT_ACCEPT_ENCODING, ACCEPT_ENCODING);
    if (encoding != null) {
      headers.add(ConnectWire.CONNECT_CONTENT_ENCODING, encoding.wireName());
    }
    if (timeoutNanos > 0) {
      headers.add(ConnectWire.CONNECT_TIMEOUT_MS, timeoutMillis(timeoutNanos));
    }
  }

  @Override
  public void announceTimeout(Http2Headers headers, long timeoutNanos) {
    headers.set(ConnectWire.CONNECT_TIMEOUT_MS, timeoutMillis(timeoutNanos));
  }

  /** A deadline as {@code connect-timeout-ms} says it: whole milliseconds, at least one. */
  static String timeoutMillis(long timeoutNanos) {
    return Long.toString(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
  }

  @Override
  public int endFrameFlag() {
    return END_STREAM_FLAG;
  }

  /** {@code application/connect+codec}, in the request's codec. */
  @Override
  Status contentTypeProblem(CharSequence contentType) {
    return codecProblem(contentType, APPLICATION_CONNECT, false, codec);
  }

  @Override
  AsciiString encodingHeader() {
    return ConnectWire.CONNECT_CONTENT_ENCODING;
  }

  @Override
  void headRead(Http2Headers headers, Metadata metadata, MessageEncoding encoding) {
    responseEncoding = encoding;
  }

  /** The end-of-stream message: the error, if any, and the trailers. */
  @Override
  public void endFrameRead(ByteBuf payload, boolean compressed, CallEvents call) {
    String json;
    try {
      json = endFrameText(payload, compressed, responseEncoding, maxInboundMessageSize, call);
    } finally {
      payload.release();
    }
    if (json == null) {
      return;
    }
    ConnectResponses.End end;
    try {
      end = ConnectResponses.endOfStream(json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      call.fail(Status.INTERNAL.withDescription("Malformed Connect end-of-stream message: " + e.getMessage()));
      return;
    }
    call.end(end.status(), end.trailers());
  }

  @Override
  public void endedWithoutTrailers(CallEvents call) {
    call.close(Status.INTERNAL.withDescription(
        "Server ended the CONNECT_STREAM response without its end-of-stream message"), new Metadata());
  }
}
