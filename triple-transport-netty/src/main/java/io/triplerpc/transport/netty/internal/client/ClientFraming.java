package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.ClientProtocol;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;

/**
 * How one wire protocol frames a client call on its stream (HTTP/2's, or an HTTP/1.1 exchange, in
 * HTTP/2's terms: a head, DATA, trailers), as the server's framings do on theirs: gRPC ({@link GrpcClientFraming}), gRPC-Web ({@link GrpcWebClientFraming}), Connect unary
 * ({@link ConnectUnaryClientFraming}) and Connect streaming ({@link ConnectStreamClientFraming}). The
 * request side turns the call into request headers and DATA; the response side turns the server's
 * frames into the call's {@link CallEvents}. The stream ({@link NettyClientStream} on HTTP/2,
 * {@link Http1ClientStream} on HTTP/1.1) knows none of this: it keeps flow control, demand,
 * cancellation and the write queue.
 *
 * <p>A framing without state is shared by every stream; one with state is one per stream. The request
 * methods run on the calling thread before the stream starts or as it writes; the response methods
 * on the event loop only.
 */
public interface ClientFraming {

  /**
   * The framing of a call of {@code method} in {@code protocol}, its messages in {@code codec}
   * ({@code proto} or {@code json}); a Connect unary call of an idempotent method goes as GET if
   * {@code httpGet}.
   */
  static ClientFraming of(ClientProtocol protocol, MethodDescriptor<?, ?> method, int maxInboundMessageSize,
      MessageEncoding requestEncoding, String codec, boolean httpGet) {
    switch (protocol) {
      case GRPC_WEB:
        return new GrpcWebClientFraming(maxInboundMessageSize, codec);
      case CONNECT:
        return method.type() == MethodType.UNARY
            ? new ConnectUnaryClientFraming(maxInboundMessageSize, requestEncoding, codec,
                httpGet && method.isIdempotent())
            : new ConnectStreamClientFraming(maxInboundMessageSize, codec);
      default:
        return "json".equals(codec) ? GrpcClientFraming.JSON : GrpcClientFraming.INSTANCE;
    }
  }

  /**
   * The request head of a call to {@code path} in {@code framing}'s protocol, to {@code scheme://authority},
   * {@code metadata} included; {@code timeoutNanos} 0 for no deadline, {@code encoding} null for none.
   */
  static Http2Headers requestHeaders(AsciiString scheme, AsciiString authority, CharSequence path,
      ClientFraming framing, Metadata metadata, long timeoutNanos, MessageEncoding encoding) {
    Http2Headers headers = new DefaultHttp2Headers(false, 10 + metadata.size())
        .method(GrpcHeaders.POST)
        .scheme(scheme)
        .path(path)
        .authority(authority);
    headers.add(GrpcHeaders.USER_AGENT, GrpcHeaders.USER_AGENT_VALUE);
    framing.addRequestHeaders(headers, timeoutNanos, encoding);
    GrpcHttp2Headers.addMetadata(headers, metadata);
    return headers;
  }

  // The request.

  /**
   * Adds the protocol's request headers to {@code headers}: its content type, the deadline
   * {@code timeoutNanos} away (0 for none) and the compression of the request's messages ({@code
   * encoding}, null for none).
   */
  void addRequestHeaders(Http2Headers headers, long timeoutNanos, MessageEncoding encoding);

  /** Rewrites the deadline {@code headers} announce to {@code timeoutNanos} from now. Event loop. */
  void announceTimeout(Http2Headers headers, long timeoutNanos);

  /**
   * A request message, framed with its 5-byte prefix, as the request body carries it; owns {@code framed}.
   * A framing that {@link #sendsMessageInHead may send it in the head} may move it into {@code headers}
   * (not sent yet then) and return an empty body.
   */
  default ByteBuf requestBody(ByteBuf framed, Http2Headers headers) {
    return framed;
  }

  /**
   * Whether the request's one message may go in its head (a Connect GET, in the URL): the stream then
   * sends the head only with the message, after {@link #requestBody}. Asked once, as the stream is made.
   */
  default boolean sendsMessageInHead() {
    return false;
  }

  // The response: event loop only.

  /** The flag of the envelope that ends the response body (gRPC-Web's trailers, Connect's end of stream), or 0. */
  int endFrameFlag();

  /** A header block: the response's head if {@code first}, else trailers. */
  void headersRead(Http2Headers headers, boolean first, boolean endOfStream, CallEvents call);

  /** A DATA frame, after the head; owns {@code data}. */
  void dataRead(ByteBuf data, boolean endOfStream, CallEvents call);

  /** The envelope that ends the body ({@link #endFrameFlag}), after every message before it; owns {@code payload}. */
  default void endFrameRead(ByteBuf payload, boolean compressed, CallEvents call) {
    payload.release();
    call.fail(Status.INTERNAL.withDescription("Unexpected end frame in a " + this + " response"));
  }

  /** The response body ended, every message before its end delivered, and nothing said how the call ended. */
  void endedWithoutTrailers(CallEvents call);

  /** The call closed: the framing releases what it holds. */
  default void release() {}

  /** What a framing makes of the response: the call's events, delivered by its stream. Event loop only. */
  interface CallEvents {

    /** The response headers. */
    void headers(Metadata headers, MessageEncoding responseEncoding);

    /**
     * Enveloped messages of the body, read as the reader asks for them; owns {@code data}.
     * {@code endOfBody} when the body's end (an end frame) is in it.
     */
    void framed(ByteBuf data, boolean endOfBody);

    /** The body's one message, whole; owns {@code payload}. */
    void message(ByteBuf payload, boolean compressed);

    /** {@code bytes} of the body were taken without the deframer: they go back to flow control now. */
    void consumed(int bytes);

    /** Trailers: the call ends with {@code status} once the messages before them are read. */
    void trailers(Status status, Metadata trailers);

    /** The end in the body: the messages before it are delivered, and the call ends with {@code status} now. */
    void end(Status status, Metadata trailers);

    /** The call closes with {@code status} now, without trailers. */
    void close(Status status, Metadata trailers);

    /** The response is not what the protocol allows: the stream is reset and the call closes with {@code status}. */
    void fail(Status status);
  }
}
