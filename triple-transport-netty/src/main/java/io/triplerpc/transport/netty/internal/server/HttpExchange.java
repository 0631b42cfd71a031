package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.PeerInfo;

/**
 * One HTTP request and its response, whatever the HTTP version: an HTTP/2 stream
 * ({@code WebProtocol}'s exchange), an HTTP/1.1 request on its connection ({@link Http1ServerHandler}),
 * or an HTTP/3 request stream ({@code triple-transport-http3}). The web protocols (Connect, gRPC-Web, and
 * gRPC where the exchange {@linkplain #carriesTrailers carries trailers} and no HTTP/2 handler serves it)
 * write their responses through it, so each is written once for every version. Headers are in HTTP/2
 * form ({@code :status} included). Event loop only.
 */
public interface HttpExchange {

  EventLoop eventLoop();

  PeerInfo peer();

  ByteBufAllocator alloc();

  /** Writes the response head; {@code endOfResponse} when there is no body. */
  void writeHead(Http2Headers head, boolean endOfResponse);

  /** Writes part of the body, owning {@code data}; the future completes once it reached the socket. */
  ChannelFuture writeBody(ByteBuf data, boolean endOfResponse);

  /**
   * Whether {@link #writeTrailers} works: HTTP/3, whose trailers are a HEADERS frame as HTTP/2's are, so
   * that gRPC is served through {@link WebCalls} too. HTTP/2's gRPC has its own path (its hot one), and
   * HTTP/1.1 has none.
   */
  default boolean carriesTrailers() {
    return false;
  }

  /**
   * Ends the response with {@code trailers} (after the head and body, or alone as a trailers-only
   * response, then with {@code :status}); the future completes once they reached the socket.
   *
   * @throws UnsupportedOperationException unless {@link #carriesTrailers()}
   */
  default ChannelFuture writeTrailers(Http2Headers trailers) {
    throw new UnsupportedOperationException("This exchange has no trailers");
  }

  /** Sends what was written. */
  void flush();

  /**
   * {@code bytes} of the request body were used: HTTP/2 acknowledges them to flow control, HTTP/1.1
   * reads on once little is left unused.
   */
  void consumed(int bytes);

  /**
   * Ends the exchange without a proper end, when the response cannot be finished (the service failed
   * mid-way on HTTP/1.1, say): RST_STREAM on HTTP/2, the connection closed on HTTP/1.1.
   */
  void abandon();

  /**
   * Whether the connection or the server holds so many unread responses that calls should write no more
   * ({@code isReady()} false) until told. Any thread.
   */
  default boolean holdsBack() {
    return false;
  }
}
