package io.triplerpc.transport.netty.internal.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * A protocol a server connection speaks on its HTTP/2 streams, chosen per stream by the request's
 * headers ({@link NettyServerHandler} picks it by content type): gRPC ({@link GrpcProtocol}) and the
 * web protocols, Connect and gRPC-Web ({@link WebProtocol}, whose framing HTTP/1.1 shares). Each turns
 * its framing into core's {@code ServerStream}s, which the one dispatcher serves. Event loop only.
 */
interface ServerProtocol {

  /**
   * The request headers of a new stream, already checked as an HTTP/2 request (RFC 9113 8.1). The
   * protocol answers a request it refuses at once, in its own terms; otherwise it attaches the
   * exchange that takes the stream's later frames ({@link NettyServerHandler#attach}) before core
   * sees the call, since core may end it at once.
   */
  void open(ChannelHandlerContext ctx, Http2Stream stream, Http2Headers headers, boolean endOfStream);
}
