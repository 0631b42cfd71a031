package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.CorsPolicy;
import io.triplerpc.PeerInfo;
import java.util.Locale;

/**
 * CORS for the web protocols, on HTTP/1.1 and HTTP/2 alike: answers preflights and adds the CORS
 * headers to the responses of allowed origins, as a {@link CorsPolicy} says. (Netty's {@code CorsHandler}
 * works on HTTP/1.1 pipelines only; these calls also arrive as HTTP/2 streams.) Event loop only.
 */
final class Cors {

  static final AsciiString OPTIONS = AsciiString.cached("OPTIONS");
  private static final AsciiString ORIGIN = AsciiString.cached("origin");
  private static final AsciiString REQUEST_METHOD = AsciiString.cached("access-control-request-method");
  private static final AsciiString REQUEST_HEADERS = AsciiString.cached("access-control-request-headers");
  private static final AsciiString ALLOW_ORIGIN = AsciiString.cached("access-control-allow-origin");
  private static final AsciiString ALLOW_METHODS = AsciiString.cached("access-control-allow-methods");
  private static final AsciiString ALLOW_HEADERS = AsciiString.cached("access-control-allow-headers");
  private static final AsciiString ALLOW_CREDENTIALS = AsciiString.cached("access-control-allow-credentials");
  private static final AsciiString EXPOSE_HEADERS = AsciiString.cached("access-control-expose-headers");
  private static final AsciiString MAX_AGE = AsciiString.cached("access-control-max-age");
  private static final AsciiString VARY = AsciiString.cached("vary");
  private static final AsciiString STATUS_204 = AsciiString.cached("204");

  private Cors() {}

  /** Whether {@code headers} are a CORS preflight: OPTIONS naming the method it asks for. */
  static boolean isPreflight(Http2Headers headers) {
    return OPTIONS.contentEquals(headers.method()) && headers.contains(REQUEST_METHOD);
  }

  /**
   * Answers a preflight: 204 with what the page may do when the policy allows its origin, method and
   * headers; otherwise 403 without CORS headers, so the browser refuses the call, and says why.
   */
  static void answerPreflight(HttpExchange exchange, Http2Headers headers, CorsPolicy policy) {
    String origin = string(headers.get(ORIGIN));
    String method = string(headers.get(REQUEST_METHOD));
    String refusal = null;
    if (policy == null) {
      refusal = "This server allows no cross-origin calls (no CORS policy)";
    } else if (!policy.allowsOrigin(origin)) {
      refusal = "Origin " + origin + " may not call this server (CORS)";
    } else if (method == null || !policy.allowsMethod(method)) {
      refusal = "Method " + method + " may not be used cross-origin (CORS allows " + String.join(", ", policy.methods()) + ")";
    } else {
      String requested = string(headers.get(REQUEST_HEADERS));
      if (requested != null) {
        for (String header : requested.split(",")) {
          if (!header.isBlank() && !policy.allowsRequestHeader(header)) {
            refusal = "Header " + header.trim().toLowerCase(Locale.ROOT) + " may not be sent cross-origin (CORS)";
            break;
          }
        }
      }
    }
    if (refusal != null) {
      WebCalls.respondText(exchange, 403, refusal, null);
      return;
    }
    Http2Headers head = new DefaultHttp2Headers(false).status(STATUS_204);
    addOrigin(head, origin, policy);
    head.add(ALLOW_METHODS, String.join(", ", policy.methods()));
    head.add(ALLOW_HEADERS, String.join(", ", policy.requestHeaders()));
    head.add(MAX_AGE, Long.toString(policy.maxAge().toSeconds()));
    exchange.writeHead(head, true);
    exchange.flush();
  }

  /**
   * {@code exchange}, adding the CORS headers to its response when the request comes from an origin
   * the policy allows; {@code exchange} itself otherwise.
   */
  static HttpExchange forRequest(HttpExchange exchange, Http2Headers headers, CorsPolicy policy) {
    String origin = string(headers.get(ORIGIN));
    if (policy == null || origin == null || !policy.allowsOrigin(origin)) {
      return exchange;
    }
    return new HttpExchange() {
      @Override
      public EventLoop eventLoop() {
        return exchange.eventLoop();
      }

      @Override
      public PeerInfo peer() {
        return exchange.peer();
      }

      @Override
      public ByteBufAllocator alloc() {
        return exchange.alloc();
      }

      @Override
      public void writeHead(Http2Headers head, boolean endOfResponse) {
        addOrigin(head, origin, policy);
        // Without credentials "*" exposes every header, the trailer- ones of Connect unary included.
        head.add(EXPOSE_HEADERS, policy.allowCredentials() ? String.join(", ", policy.responseHeaders()) : "*");
        exchange.writeHead(head, endOfResponse);
      }

      @Override
      public ChannelFuture writeBody(ByteBuf data, boolean endOfResponse) {
        return exchange.writeBody(data, endOfResponse);
      }

      @Override
      public void flush() {
        exchange.flush();
      }

      @Override
      public void consumed(int bytes) {
        exchange.consumed(bytes);
      }

      @Override
      public void abandon() {
        exchange.abandon();
      }
    };
  }

  private static void addOrigin(Http2Headers head, String origin, CorsPolicy policy) {
    head.set(ALLOW_ORIGIN, origin);
    head.add(VARY, "origin");
    if (policy.allowCredentials()) {
      head.set(ALLOW_CREDENTIALS, "true");
    }
  }

  private static String string(CharSequence value) {
    return value == null ? null : value.toString();
  }
}
