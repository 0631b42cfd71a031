package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Base64;

/**
 * Connect unary: the request body is the message without its envelope (or, for a GET, the URL's query
 * holds it); the response is 200 with the
 * message as its body and the trailers as {@code trailer-} headers, or an error as its HTTP status and
 * a JSON body. One per stream: it keeps the response's head and its body while it arrives.
 */
final class ConnectUnaryClientFraming implements ClientFraming {

  private static final AsciiString ONE = AsciiString.cached("1");
  private static final AsciiString ACCEPT_ENCODING = AsciiString.cached(MessageEncoding.ACCEPT_ENCODING);

  /**
   * The longest request target (path and query) a GET may have, else the call goes as POST: a request
   * line of at most 4,096 bytes, as Netty's HTTP/1.1 decoder (and so Triple's server) takes by default.
   */
  static final int MAX_GET_TARGET = 4000;

  private static final AsciiString GET = AsciiString.cached("GET");
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final int maxInboundMessageSize;
  /** How the request message is compressed ({@code content-encoding}), or null. */
  private final MessageEncoding requestEncoding;
  /** The messages' codec, {@code proto} or {@code json}. */
  private final String codec;
  /** Whether the call goes as a GET when its URL is short enough (an idempotent method, GET enabled). */
  private final boolean get;
  /** The response's headers and trailers; null until the head. */
  private ConnectResponses.UnaryMetadata metadata;
  /** The response's HTTP status, -1 if it had none that parses. */
  private int httpStatus;
  /** The response's encoding ({@code content-encoding}), or null. */
  private MessageEncoding responseEncoding;
  /** The body as it arrives; never more than the inbound limit. */
  private ByteBuf body = Unpooled.EMPTY_BUFFER;

  ConnectUnaryClientFraming(int maxInboundMessageSize, MessageEncoding requestEncoding, String codec, boolean get) {
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.requestEncoding = requestEncoding;
    this.codec = codec;
    this.get = get;
  }

  @Override
  public void addRequestHeaders(Http2Headers headers, long timeoutNanos, MessageEncoding encoding) {
    headers.add(GrpcHeaders.CONTENT_TYPE, ConnectWire.unaryContentTypeOf(codec));
    headers.add(ConnectWire.CONNECT_PROTOCOL_VERSION, ONE);
    headers.add(ConnectWire.ACCEPT_ENCODING, ACCEPT_ENCODING);
    if (encoding != null) {
      headers.add(ConnectWire.CONTENT_ENCODING, encoding.wireName());
    }
    if (timeoutNanos > 0) {
      headers.add(ConnectWire.CONNECT_TIMEOUT_MS, ConnectStreamClientFraming.timeoutMillis(timeoutNanos));
    }
  }

  @Override
  public void announceTimeout(Http2Headers headers, long timeoutNanos) {
    headers.set(ConnectWire.CONNECT_TIMEOUT_MS, ConnectStreamClientFraming.timeoutMillis(timeoutNanos));
  }

  @Override
  public ByteBuf requestBody(ByteBuf framed, Http2Headers headers) {
    ByteBuf body = body(framed);
    return get ? intoQuery(body, headers) : body;
  }

  @Override
  public boolean sendsMessageInHead() {
    return get;
  }

  /**
   * A GET of {@code body}, as the protocol says: {@code ?connect=v1&encoding=codec&base64=1&message=...}
   * (base64url without padding; {@code compression} when it is compressed), no content type, no
   * protocol-version header; an empty body. A URL longer than {@link #MAX_GET_TARGET} leaves
   * {@code headers} a POST's and {@code body} its body.
   */
  private ByteBuf intoQuery(ByteBuf body, Http2Headers headers) {
    CharSequence path = headers.path();
    int messageLength = (body.readableBytes() * 4 + 2) / 3;
    StringBuilder target = new StringBuilder(path.length() + 64 + messageLength)
        .append(path).append("?connect=v1&encoding=").append(codec).append("&base64=1");
    if (requestEncoding != null) {
      target.append("&compression=").append(requestEncoding.wireName());
    }
    target.append("&message=");
    if (target.length() + messageLength > MAX_GET_TARGET) {
      return body;
    }
    try {
      target.append(BASE64URL.encodeToString(ByteBufUtil.getBytes(body)));
    } finally {
      body.release();
    }
    headers.method(GET).path(target.toString());
    headers.remove(GrpcHeaders.CONTENT_TYPE);
    headers.remove(ConnectWire.CONNECT_PROTOCOL_VERSION);
    headers.remove(ConnectWire.CONTENT_ENCODING);
    return Unpooled.EMPTY_BUFFER;
  }

  /**
   * The message without its prefix, compressed as the request's {@code content-encoding} said even if
   * the call turned message compression off.
   */
  private ByteBuf body(ByteBuf framed) {
    boolean compressed = (framed.getByte(framed.readerIndex()) & 1) != 0;
    framed.skipBytes(GrpcHeaders.MESSAGE_HEADER_LENGTH);
    if (compressed || requestEncoding == null) {
      return framed;
    }
    ByteBuf compressedBody = framed.alloc().buffer(framed.readableBytes());
    try (OutputStream out = requestEncoding.compress(new ByteBufOutputStream(compressedBody))) {
      out.write(ByteBufUtil.getBytes(framed));
    } catch (IOException e) {
      compressedBody.release();
      throw new UncheckedIOException(e);
    } finally {
      framed.release();
    }
    return compressedBody;
  }

  /** No envelopes in the body. */
  @Override
  public int endFrameFlag() {
    return 0;
  }

  /**
   * The head: 200 with the message to come, or an error whose JSON comes as the body (or, without one,
   * whose HTTP status says it). A second block is HTTP trailers: nothing in them matters but the end.
   */
  @Override
  public void headersRead(Http2Headers headers, boolean first, boolean endOfStream, CallEvents call) {
    if (!first) {
      if (endOfStream) {
        ended(call);
      }
      return;
    }
    metadata = ConnectResponses.split(headers);
    CharSequence status = headers.status();
    try {
      httpStatus = status == null ? -1 : Integer.parseInt(status.toString());
    } catch (NumberFormatException e) {
      httpStatus = -1;
    }
    try {
      responseEncoding = MessageEncoding.forName(headers.get(ConnectWire.CONTENT_ENCODING));
    } catch (IllegalArgumentException e) {
      call.fail(Status.INTERNAL.withDescription("Server responded with " + e.getMessage()));
      return;
    }
    if (httpStatus == 200) {
      CharSequence contentType = headers.get(GrpcHeaders.CONTENT_TYPE);
      String responseCodec = ConnectWire.unaryCodecOf(contentType);
      if (responseCodec == null) {
        call.fail(Status.UNKNOWN.withDescription("Response is not Connect unary: content-type " + contentType));
        return;
      }
      if (!responseCodec.equals(codec)) {
        call.fail(Status.INTERNAL.withDescription(
            "Response is in codec " + responseCodec + ", the request in " + codec + ": content-type " + contentType));
        return;
      }
      call.headers(metadata.headers(), responseEncoding);
    }
    if (endOfStream) {
      ended(call);
    }
  }

  /** Body: kept whole, acknowledged to flow control as it comes, bounded by the inbound limit. */
  @Override
  public void dataRead(ByteBuf data, boolean endOfStream, CallEvents call) {
    int size = data.readableBytes();
    call.consumed(size);
    if (body.readableBytes() + (long) size > maxInboundMessageSize) {
      data.release();
      call.fail(Status.RESOURCE_EXHAUSTED.withDescription(
          "Response message exceeds maximum size " + maxInboundMessageSize));
      return;
    }
    if (!body.isReadable()) {
      body.release();
      body = data;
    } else {
      CompositeByteBuf whole = body instanceof CompositeByteBuf ? (CompositeByteBuf) body
          : data.alloc().compositeBuffer(Integer.MAX_VALUE).addComponent(true, body);
      whole.addComponent(true, data);
      body = whole;
    }
    if (endOfStream) {
      ended(call);
    }
  }

  /** The whole response is in: its message and trailers, or its error. */
  private void ended(CallEvents call) {
    ByteBuf whole = body;
    body = Unpooled.EMPTY_BUFFER;
    if (httpStatus == 200) {
      call.message(whole, responseEncoding != null);
      call.end(Status.OK, metadata.trailers());
      return;
    }
    byte[] json;
    try (InputStream in = responseEncoding == null ? new ByteBufInputStream(whole)
        : responseEncoding.decompress(new ByteBufInputStream(whole))) {
      json = in.readNBytes(maxInboundMessageSize);
    } catch (IOException e) {
      json = new byte[0];
    } finally {
      whole.release();
    }
    // An error carries the response's headers and trailers alike, as Connect's errors do.
    call.end(ConnectResponses.unaryError(httpStatus, json), metadata.headers().merge(metadata.trailers()));
  }

  /** Never called: there are no envelopes, so the body's end is the response's ({@link #dataRead}). */
  @Override
  public void endedWithoutTrailers(CallEvents call) {
    call.close(Status.INTERNAL.withDescription("Server ended the CONNECT_UNARY response without trailers"),
        new Metadata());
  }

  @Override
  public void release() {
    ByteBuf held = body;
    body = Unpooled.EMPTY_BUFFER;
    held.release();
  }

  @Override
  public String toString() {
    return "CONNECT_UNARY";
  }
}
