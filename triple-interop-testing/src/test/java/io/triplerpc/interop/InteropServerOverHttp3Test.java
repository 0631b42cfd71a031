package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.triplerpc.TripleServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What {@code scripts/interop-server.sh --use_tls=true --use_http3=true} offers HTTP/3 clients: the interop
 * services on the UDP port of the TCP port's number, with gRPC's test certificate. Netty's HTTP/3 client
 * (trusting gRPC's test CA, for {@code foo.test.google.fr}) makes a Connect call to {@code EmptyCall}.
 */
class InteropServerOverHttp3Test {

  @Test
  void http3ServesTheInteropServicesOnThePortsNumber() throws Exception {
    TripleServer server = InteropServer.start("127.0.0.1", 0, true, true);
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    ChannelFuture udp = null;
    try {
      QuicSslContext tls = QuicSslContextBuilder.forClient()
          .trustManager(InteropServer.grpcTestFile("ca.pem").toFile())
          .applicationProtocols(Http3.supportedApplicationProtocols())
          .build();
      ChannelHandler codec = Http3.newQuicClientCodecBuilder()
          .sslContext(tls)
          .sslEngineProvider(quic -> tls.newEngine(quic.alloc(), "foo.test.google.fr", server.port()))
          .maxIdleTimeout(30, TimeUnit.SECONDS)
          .initialMaxData(1 << 20)
          .initialMaxStreamDataBidirectionalLocal(1 << 20)
          .build();
      udp = new Bootstrap().group(group).channel(NioDatagramChannel.class).handler(codec)
          .bind(new InetSocketAddress("127.0.0.1", 0));
      udp.get(10, TimeUnit.SECONDS);
      QuicChannel connection = QuicChannel.newBootstrap(udp.channel())
          .handler(new Http3ClientConnectionHandler())
          .remoteAddress(new InetSocketAddress("127.0.0.1", server.port()))
          .connect()
          .get(10, TimeUnit.SECONDS);
      CompletableFuture<String> answer = new CompletableFuture<>();
      QuicStreamChannel stream = Http3.newRequestStream(connection, new Http3RequestStreamInboundHandler() {
        private final StringBuilder body = new StringBuilder();
        private CharSequence status;

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
          status = status == null ? frame.headers().status() : status;
        }

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
          body.append(frame.content().toString(StandardCharsets.UTF_8));
          frame.release();
        }

        @Override
        protected void channelInputClosed(ChannelHandlerContext ctx) {
          answer.complete(status + " " + body.toString().trim());
          ctx.close();
        }
      }).get(10, TimeUnit.SECONDS);
      Http3Headers head = new DefaultHttp3Headers().method("POST").scheme("https")
          .authority("foo.test.google.fr").path("/grpc.testing.TestService/EmptyCall");
      head.add("content-type", "application/json");
      ByteBuf body = Unpooled.copiedBuffer("{}", StandardCharsets.UTF_8);
      stream.write(new DefaultHttp3HeadersFrame(head));
      stream.writeAndFlush(new DefaultHttp3DataFrame(body)).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
      assertEquals("200 {}", answer.get(20, TimeUnit.SECONDS));
      connection.close().get(10, TimeUnit.SECONDS);
    } finally {
      // The QUIC codec frees its native buffers when its channel closes, not when the group stops.
      if (udp != null && udp.channel() != null) {
        udp.channel().close().get(10, TimeUnit.SECONDS);
      }
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(20));
    }
  }

  @Test
  void http3WithoutTlsIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> InteropServer.start("127.0.0.1", 0, false, true));
  }
}
