package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** What the tests of hostile and careless HTTP/3 peers share: the server they attack, and their streams. */
final class Http3Peers {

  private Http3Peers() {}

  /** A server on 127.0.0.1 with the test certificate and HTTP/3 on, to add services and limits to. */
  static TripleServer.Builder server() {
    return TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .tls(TlsConfig.builder()
            .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
            .build())
        .http3();
  }

  static void stop(TripleServer server) throws InterruptedException {
    if (server != null) {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "server terminated");
    }
  }

  /**
   * A request stream's client side that throws its response away: {@code answered} completes at the first
   * response message (or fails with the stream), and the stream closes at the response's end if
   * {@code closeAtEnd}. One that does not {@code read} never reads: QUIC's windows stay as they began.
   */
  static Http3RequestStreamInboundHandler discarding(boolean read, boolean closeAtEnd,
      CompletableFuture<Void> answered) {
    return new Http3RequestStreamInboundHandler() {
      @Override
      public void handlerAdded(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(read);
      }

      @Override
      protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {}

      @Override
      protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
        frame.release();
        answered.complete(null);
      }

      @Override
      protected void channelInputClosed(ChannelHandlerContext ctx) {
        if (closeAtEnd) {
          ctx.close();
        }
      }

      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        answered.completeExceptionally(cause);
        ctx.close();
      }
    };
  }
}
