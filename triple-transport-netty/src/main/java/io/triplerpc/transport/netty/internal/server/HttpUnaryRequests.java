package io.triplerpc.transport.netty.internal.server;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.AsciiString;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.GrpcTimeout;
import io.triplerpc.internal.wire.HttpUnary;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;

/**
 * Reads the headers of an HTTP unary request (HTTP/1.1 ones converted to HTTP/2 form first, so both
 * versions follow one set of rules).
 */
final class HttpUnaryRequests {

  static final AsciiString ALLOW_POST = AsciiString.cached("POST");

  private HttpUnaryRequests() {}

  /** A request that cannot be served, with the HTTP status and the gRPC status that answer it. */
  static final class Rejection extends Exception {

    private static final long serialVersionUID = 1L;

    final int httpStatus;
    final transient Status status;
    final transient CharSequence allow;

    Rejection(int httpStatus, Status status, CharSequence allow) {
      super(status.description(), null, false, false);
      this.httpStatus = httpStatus;
      this.status = status;
      this.allow = allow;
    }
  }

  /** The headers of an HTTP/1.1 request in HTTP/2 form; cleartext, so {@code :scheme} is http. */
  static Http2Headers toHttp2Headers(HttpRequest request) {
    request.headers().set(HttpConversionUtil.ExtensionHeaderNames.SCHEME.text(), GrpcHeaders.HTTP);
    return HttpConversionUtil.toHttp2Headers(request, false);
  }

  /**
   * The call a request asks for; its metadata keeps every application header, {@code
   * tri-service-version} and {@code tri-service-group} included.
   *
   * @throws Rejection 405 for a method other than POST, 415 for a body neither JSON nor protobuf, 404
   *     for a malformed path, 400 for a malformed {@code grpc-timeout}
   */
  static InboundRequest parse(Http2Headers headers) throws Rejection {
    CharSequence method = headers.method();
    if (!GrpcHeaders.POST.contentEquals(method)) {
      throw new Rejection(405, Status.UNIMPLEMENTED.withDescription(
          "HTTP method " + method + " not allowed: Triple calls are POST /{service}/{method}"), ALLOW_POST);
    }
    CharSequence contentType = headers.get(GrpcHeaders.CONTENT_TYPE);
    String subtype = HttpUnary.subtypeOf(contentType);
    if (subtype == null) {
      throw new Rejection(415, Status.INVALID_ARGUMENT.withDescription("Unsupported content-type: " + contentType
          + "; use application/json or application/proto (or application/grpc for gRPC)"), null);
    }
    CharSequence path = headers.path();
    if (path != null) {
      int query = AsciiString.indexOf(path, '?', 0);
      if (query >= 0) {
        path = path.subSequence(0, query);
      }
    }
    if (path == null || path.length() < 2 || path.charAt(0) != '/') {
      throw new Rejection(404, Status.UNIMPLEMENTED.withDescription(
          "Malformed path: " + path + "; Triple calls are POST /{service}/{method}"), null);
    }
    long timeoutNanos;
    try {
      timeoutNanos = GrpcTimeout.requestTimeoutNanos(headers.get(GrpcHeaders.GRPC_TIMEOUT));
    } catch (IllegalArgumentException e) {
      throw new Rejection(400, Status.INVALID_ARGUMENT.withDescription(e.getMessage()), null);
    }
    return new InboundRequest(path, GrpcHttp2Headers.toMetadata(headers), timeoutNanos, null, null, subtype, true);
  }
}
