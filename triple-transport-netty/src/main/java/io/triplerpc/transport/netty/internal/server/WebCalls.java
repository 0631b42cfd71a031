package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.CorsPolicy;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.HttpEndpoint;
import io.triplerpc.internal.rest.RestRequest;
import io.triplerpc.internal.rest.RestRoutes;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.GrpcTimeout;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Opens the call of an HTTP request in a web protocol, on HTTP/1.1 or HTTP/2: its content type (or a
 * GET) picks the protocol, Connect unary, Connect streaming or gRPC-Web; its headers become core's
 * {@link InboundRequest}. A request no protocol takes is answered at once: 405 or 415. CORS preflights
 * are answered here too, and an allowed origin's responses get their CORS headers ({@link Cors}). A
 * request for one of the server's plain HTTP endpoints goes to it first ({@link HttpEndpoints}), except a path
 * under the docs page's folder that the page has nothing at and a REST route serves.
 */
public final class WebCalls {

  private static final AsciiString GRPC_WEB = AsciiString.cached("application/grpc-web");
  private static final AsciiString GRPC_WEB_TEXT = AsciiString.cached("application/grpc-web-text");
  private static final AsciiString CONNECT_STREAM = AsciiString.cached("application/connect");
  private static final AsciiString GRPC = GrpcHeaders.APPLICATION_GRPC;
  private static final AsciiString GET = AsciiString.cached("GET");
  private static final AsciiString FORM_URLENCODED = AsciiString.cached("application/x-www-form-urlencoded");
  static final AsciiString ALLOW = AsciiString.cached("allow");
  private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=utf-8");
  static final AsciiString ALLOW_POST = AsciiString.cached("POST");
  private static final AsciiString ALLOW_GET_POST = AsciiString.cached("GET, POST");
  /** Headers of the protocols themselves, left out of the call's metadata. */
  private static final List<AsciiString> PROTOCOL_HEADERS = List.of(
      ConnectWire.CONNECT_PROTOCOL_VERSION, ConnectWire.CONNECT_TIMEOUT_MS, ConnectWire.CONNECT_CONTENT_ENCODING,
      ConnectWire.CONNECT_ACCEPT_ENCODING, ConnectWire.CONTENT_ENCODING, ConnectWire.ACCEPT_ENCODING,
      AsciiString.cached("content-length"), AsciiString.cached("x-grpc-web"));

  private WebCalls() {}

  /**
   * Opens the call {@code headers} ask for on {@code exchange}; the request body goes to the stream
   * returned ({@link WebServerStream#dataRead}). Null when the request was answered at once; a GET's
   * stream already has its message.
   */
  public static WebServerStream open(HttpExchange exchange, Http2Headers headers, ServerTransportListener listener,
      int maxInboundMessageSize, CorsPolicy cors) {
    // An HTTP/2 CONNECT has no :path.
    HttpEndpoint endpoint = headers.path() == null ? null : listener.httpEndpoint(headers.path());
    if (endpoint != null && endpoint.yieldsTo(headers.path()) && restServes(listener, headers)) {
      // A REST route under the docs page's folder, at a path the page has nothing at: the route's.
      endpoint = null;
    }
    if (endpoint != null) {
      HttpEndpoints.answer(exchange, headers, endpoint);
      return null;
    }
    if (Cors.isPreflight(headers)) {
      Cors.answerPreflight(exchange, headers, cors);
      return null;
    }
    exchange = Cors.forRequest(exchange, headers, cors);
    ByteBufAllocator alloc = exchange.alloc();
    CharSequence method = headers.method();
    RestRoutes.Result rest;
    try {
      rest = listener.restRoute(method, headers.path(), headers::get);
    } catch (IllegalArgumentException e) {
      respondRest(exchange, 400, Status.INVALID_ARGUMENT.withDescription(e.getMessage()), null);
      return null;
    }
    if (rest instanceof RestRoutes.Found found) {
      return openRest(exchange, headers, listener, maxInboundMessageSize, found.request());
    }
    if (rest instanceof RestRoutes.NotAllowed notAllowed) {
      respondRest(exchange, 405, Status.UNIMPLEMENTED.withDescription("Method Not Allowed"), notAllowed.allow());
      return null;
    }
    if (rest instanceof RestRoutes.Refused refused) {
      respondRest(exchange, refused.httpStatus(), refused.httpStatus() == 404
          ? Status.NOT_FOUND.withDescription(refused.message())
          : Status.INVALID_ARGUMENT.withDescription(refused.message()), null);
      return null;
    }
    if (rest instanceof RestRoutes.NotFound) {
      respondRest(exchange, 404, Status.NOT_FOUND.withDescription("Not Found"), null);
      return null;
    }
    boolean get = GET.contentEquals(method);
    if (!get && !GrpcHeaders.POST.contentEquals(method)) {
      reject(exchange, 405, Status.UNIMPLEMENTED.withDescription(
          "HTTP method " + method + " not allowed: calls are POST /{service}/{method} (GET for Connect unary)"),
          ALLOW_GET_POST);
      return null;
    }
    CharSequence contentType = headers.get(GrpcHeaders.CONTENT_TYPE);
    CharSequence mediaType = ConnectWire.mediaType(contentType);
    ConnectGetQuery query = null;
    if (get) {
      try {
        query = ConnectGetQuery.parse(headers.path());
      } catch (IllegalArgumentException e) {
        reject(exchange, 400, Status.INVALID_ARGUMENT.withDescription(e.getMessage()), null);
        return null;
      }
    }
    WebFraming framing;
    String codec;
    if (get) {
      codec = query.text("encoding");
      framing = "json".equals(codec) || "proto".equals(codec) ? new ConnectUnaryFraming(codec) : null;
      if (framing == null) {
        reject(exchange, 415, Status.INVALID_ARGUMENT.withDescription(
            "A Connect GET names its codec in the query: encoding=json or encoding=proto, not " + codec), null);
        return null;
      }
    } else if (mediaType != null && startsWith(mediaType, GRPC_WEB)) {
      boolean text = startsWith(mediaType, GRPC_WEB_TEXT);
      codec = GrpcHeaders.codecOf(mediaType);
      boolean plain = mediaType.length() == (text ? GRPC_WEB_TEXT : GRPC_WEB).length();
      framing = (plain || "proto".equals(codec) || "json".equals(codec))
          ? new GrpcWebFraming(AsciiString.of(mediaType), text) : null;
    } else if (mediaType != null && exchange.carriesTrailers() && startsWith(mediaType, GRPC)
        && (mediaType.length() == GRPC.length() || mediaType.charAt(GRPC.length()) == '+')) {
      codec = GrpcHeaders.codecOf(mediaType);
      framing = codec == null || "proto".equals(codec) ? new GrpcFraming(GrpcHeaders.APPLICATION_GRPC)
          : "json".equals(codec) ? new GrpcFraming(GrpcHeaders.APPLICATION_GRPC_JSON) : null;
    } else if (mediaType != null && startsWith(mediaType, CONNECT_STREAM) && mediaType.length() > CONNECT_STREAM.length()
        && mediaType.charAt(CONNECT_STREAM.length()) == '+') {
      codec = GrpcHeaders.codecOf(mediaType);
      framing = "proto".equals(codec) || "json".equals(codec)
          ? new ConnectStreamFraming(AsciiString.of(mediaType)) : null;
    } else {
      codec = ConnectWire.unaryCodecOf(contentType);
      framing = codec == null ? null : new ConnectUnaryFraming(codec);
    }
    if (framing == null) {
      reject(exchange, 415, Status.INVALID_ARGUMENT.withDescription("Unsupported content-type: " + contentType
          + "; use application/json or application/proto (Connect unary), application/connect+json or "
          + "application/connect+proto (Connect streaming), application/grpc-web[-text][+proto|+json] "
          + "(gRPC-Web), or application/grpc (gRPC over HTTP/2 or HTTP/3)"), ALLOW_POST);
      return null;
    }
    boolean unary = framing.unframedRequest();
    // gRPC (on HTTP/3) names its encodings and deadline as gRPC-Web does.
    boolean grpcStyle = framing instanceof GrpcWebFraming || framing instanceof GrpcFraming;
    MessageEncoding requestEncoding = null;
    Status invalid = null;
    long timeoutNanos = 0;
    try {
      CharSequence encodingName = get ? query.text("compression")
          : headers.get(unary ? ConnectWire.CONTENT_ENCODING
              : grpcStyle ? GrpcHeaders.GRPC_ENCODING : ConnectWire.CONNECT_CONTENT_ENCODING);
      requestEncoding = MessageEncoding.forName(encodingName);
    } catch (IllegalArgumentException e) {
      invalid = Status.UNIMPLEMENTED.withDescription(e.getMessage() + "; supported: " + MessageEncoding.ACCEPT_ENCODING);
    }
    try {
      CharSequence connectTimeout = grpcStyle ? null : headers.get(ConnectWire.CONNECT_TIMEOUT_MS);
      // grpc-timeout also sets a Connect call's deadline when connect-timeout-ms does not (curl users).
      timeoutNanos = connectTimeout != null
          ? connectTimeoutNanos(connectTimeout)
          : GrpcTimeout.requestTimeoutNanos(headers.get(GrpcHeaders.GRPC_TIMEOUT));
    } catch (IllegalArgumentException e) {
      invalid = Status.INVALID_ARGUMENT.withDescription(e.getMessage());
    }
    CharSequence version = headers.get(ConnectWire.CONNECT_PROTOCOL_VERSION);
    if (!grpcStyle && version != null && !AsciiString.contentEquals(version, "1")) {
      invalid = Status.INVALID_ARGUMENT.withDescription("Unsupported connect-protocol-version: " + version + "; use 1");
    }
    CharSequence acceptEncoding = headers.get(unary ? ConnectWire.ACCEPT_ENCODING
        : grpcStyle ? GrpcHeaders.GRPC_ACCEPT_ENCODING : ConnectWire.CONNECT_ACCEPT_ENCODING);
    ByteBuf getMessage = null;
    String path = headers.path().toString();
    Metadata metadata = null;
    if (invalid == null) {
      // Whatever of the request may be malformed is read before the stream exists, so that a malformed
      // one is answered and leaves nothing held (ServerInputFuzzTest found a GET whose path had a bad
      // percent-escape leave its stream's body buffer behind).
      try {
        if (get) {
          path = new QueryStringDecoder(headers.path().toString()).path();
          getMessage = query.message();
        }
        metadata = metadataOf(headers);
      } catch (IllegalArgumentException e) {
        invalid = Status.INVALID_ARGUMENT.withDescription(e.getMessage());
      }
    }
    WebServerStream stream = new WebServerStream(exchange, framing, alloc, maxInboundMessageSize,
        unary && requestEncoding != null);
    if (invalid != null) {
      if (getMessage != null) {
        getMessage.release();
      }
      stream.fail(invalid);
      return null;
    }
    InboundRequest request = new InboundRequest(path, metadata, timeoutNanos, requestEncoding, acceptEncoding,
        "proto".equals(codec) && grpcStyle ? null : codec, unary, get);
    stream.listener(listener.streamCreated(stream, request));
    if (getMessage != null) {
      stream.dataRead(getMessage, true);
    }
    return stream;
  }

  /**
   * Opens a REST call: its body is JSON (compressed bodies are refused, since the transcoder reads them
   * with the path and query), its deadline {@code grpc-timeout}'s, as grpc-gateway reads it; a server-streaming
   * method's answer is newline-delimited JSON ({@link RestStreamFraming}).
   */
  private static WebServerStream openRest(HttpExchange exchange, Http2Headers headers,
      ServerTransportListener listener, int maxInboundMessageSize, RestRequest rest) {
    CharSequence contentType = headers.get(GrpcHeaders.CONTENT_TYPE);
    CharSequence mediaType = ConnectWire.mediaType(contentType);
    boolean form = mediaType != null && rest.binding().reader().readsForm()
        && AsciiString.contentEqualsIgnoreCase(mediaType, FORM_URLENCODED);
    if (mediaType != null && !form && !ConnectWire.isJson(mediaType)) {
      respondRest(exchange, 415, Status.INVALID_ARGUMENT.withDescription("Unsupported content-type: " + contentType
          + (rest.binding().reader().readsForm() ? "; this route reads application/json (or application/*+json) or "
              + "application/x-www-form-urlencoded bodies" : "; this route reads application/json (or application/*+json)"
              + " bodies")), null);
      return null;
    }
    CharSequence encoding = headers.get(ConnectWire.CONTENT_ENCODING);
    if (encoding != null && !AsciiString.contentEqualsIgnoreCase(encoding, "identity")) {
      respondRest(exchange, 415, Status.INVALID_ARGUMENT.withDescription("Unsupported content-encoding: " + encoding
          + "; REST bodies are not compressed"), null);
      return null;
    }
    Status invalid = null;
    long timeoutNanos = 0;
    Metadata metadata = null;
    try {
      timeoutNanos = GrpcTimeout.requestTimeoutNanos(headers.get(GrpcHeaders.GRPC_TIMEOUT));
      metadata = metadataOf(headers);
    } catch (IllegalArgumentException e) {
      invalid = Status.INVALID_ARGUMENT.withDescription(e.getMessage());
    }
    WebFraming framing = rest.binding().serverStreaming() ? RestStreamFraming.INSTANCE : RestFraming.INSTANCE;
    WebServerStream stream = new WebServerStream(exchange, framing, exchange.alloc(), maxInboundMessageSize, false);
    if (invalid != null) {
      stream.fail(invalid);
      return null;
    }
    InboundRequest request = new InboundRequest(rest.rpcPath(), metadata, timeoutNanos, null, null, "json", true,
        false, rest.withHeaders(metadata, form));
    stream.listener(listener.streamCreated(stream, request));
    return stream;
  }

  /** Whether a REST route serves the request's path (for its method, or another, or with other conditions). */
  private static boolean restServes(ServerTransportListener listener, Http2Headers headers) {
    try {
      RestRoutes.Result result = listener.restRoute(headers.method(), headers.path(), headers::get);
      return result != null && !(result instanceof RestRoutes.NotFound);
    } catch (IllegalArgumentException malformed) {
      return false;
    }
  }

  /** Answers a REST request at once with {@code httpStatus} and the JSON error; {@code allow} for a 405. */
  private static void respondRest(HttpExchange exchange, int httpStatus, Status status, CharSequence allow) {
    WebFraming.End end = RestFraming.INSTANCE.refused(httpStatus, status, exchange.alloc());
    if (allow != null) {
      end.head().add(ALLOW, allow);
    }
    exchange.writeHead(end.head(), false);
    exchange.writeBody(end.body(), true);
    exchange.flush();
  }

  private static boolean startsWith(CharSequence text, AsciiString prefix) {
    return text.length() >= prefix.length() && AsciiString.regionMatches(text, true, 0, prefix, 0, prefix.length());
  }

  /**
   * {@code connect-timeout-ms}: at most 10 digits of milliseconds; 0 for none.
   *
   * @throws IllegalArgumentException if malformed
   */
  static long connectTimeoutNanos(CharSequence value) {
    if (value == null) {
      return 0;
    }
    if (value.length() == 0 || value.length() > 10) {
      throw new IllegalArgumentException("Malformed connect-timeout-ms: " + value);
    }
    long millis = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        throw new IllegalArgumentException("Malformed connect-timeout-ms: " + value);
      }
      millis = millis * 10 + (c - '0');
    }
    return Math.max(1, millis * 1_000_000L);
  }

  private static Metadata metadataOf(Http2Headers headers) {
    Metadata metadata = GrpcHttp2Headers.toMetadata(headers);
    for (AsciiString name : PROTOCOL_HEADERS) {
      metadata.removeAll(name.toString());
    }
    return metadata;
  }

  /**
   * Answers a request no call takes: {@code httpStatus} and the reason in plain text, so that clients
   * of every protocol read the HTTP status (Connect's parse JSON errors only).
   */
  private static void reject(HttpExchange exchange, int httpStatus, Status status, CharSequence allow) {
    respondText(exchange, httpStatus, status.description(), allow);
  }

  /** Answers with {@code httpStatus} and {@code text} as a plain-text line; {@code allow} (may be null) for a 405. */
  static void respondText(HttpExchange exchange, int httpStatus, String text, CharSequence allow) {
    Http2Headers head = new DefaultHttp2Headers(false).status(AsciiString.of(Integer.toString(httpStatus)));
    head.add(GrpcHeaders.CONTENT_TYPE, TEXT_PLAIN);
    if (allow != null) {
      head.add(ALLOW, allow);
    }
    ByteBuf body = exchange.alloc().buffer();
    body.writeCharSequence(text + "\n", StandardCharsets.UTF_8);
    exchange.writeHead(head, false);
    exchange.writeBody(body, true);
    exchange.flush();
  }
}
