package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.HttpGetHandler;
import io.triplerpc.internal.stream.HttpEndpoint;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a request for one of the server's plain HTTP endpoints ({@link HttpEndpoint}, such as a metrics
 * scrape), on HTTP/1.1 and HTTP/2 alike: a GET or HEAD gets what the endpoint's handler answers on the
 * service executor, written back on the exchange's event loop; any other method 405. Called on the event
 * loop.
 */
final class HttpEndpoints {

  private static final Logger log = LoggerFactory.getLogger(HttpEndpoints.class);
  private static final AsciiString GET = AsciiString.cached("GET");
  private static final AsciiString HEAD = AsciiString.cached("HEAD");
  private static final AsciiString ALLOW_GET_HEAD = AsciiString.cached("GET, HEAD");
  private static final AsciiString CONTENT_LENGTH = AsciiString.cached("content-length");

  private HttpEndpoints() {}

  /** Answers the request {@code headers} start on {@code exchange}; what its body holds is dropped. */
  static void answer(HttpExchange exchange, Http2Headers headers, HttpEndpoint endpoint) {
    CharSequence method = headers.method();
    boolean head = HEAD.contentEquals(method);
    if (!head && !GET.contentEquals(method)) {
      WebCalls.respondText(exchange, 405, "HTTP method " + method + " not allowed on " + endpoint.path()
          + ": use GET or HEAD", ALLOW_GET_HEAD);
      return;
    }
    HttpGetHandler.Request request = new HttpGetHandler.Request(
        headers.path().toString(), GrpcHttp2Headers.toMetadata(headers), exchange.peer());
    endpoint.get(request).thenAccept(response -> {
      try {
        exchange.eventLoop().execute(() -> respond(exchange, response, head));
      } catch (RejectedExecutionException e) {
        // The connection's event loop has shut down, and the connection with it.
        log.debug("Dropping the answer of {}: its event loop is gone", endpoint);
      }
    });
  }

  /** Writes {@code response}; the head alone, with the body's length, for a HEAD request. Event loop. */
  private static void respond(HttpExchange exchange, HttpGetHandler.Response response, boolean head) {
    byte[] body = response.body();
    Http2Headers responseHead = new DefaultHttp2Headers(false)
        .status(AsciiString.of(Integer.toString(response.status())));
    responseHead.add(GrpcHeaders.CONTENT_TYPE, response.contentType());
    responseHead.addInt(CONTENT_LENGTH, body.length);
    response.headers().forEach(responseHead::add);
    if (head || body.length == 0) {
      exchange.writeHead(responseHead, true);
    } else {
      exchange.writeHead(responseHead, false);
      exchange.writeBody(Unpooled.wrappedBuffer(body), true);
    }
    exchange.flush();
  }
}
