package io.triplerpc.transport.netty.internal.client;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * A scripted HTTP/1.1 server on a loopback port: it records each request whole (an independent check of
 * what the client put on the wire) and answers as the test's script says, raw bytes included.
 */
final class Http1Peer implements AutoCloseable {

  /** What a request looked like on the wire. */
  record Request(String protocolVersion, String method, String uri, io.netty.handler.codec.http.HttpHeaders headers,
      byte[] body) {}

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel server;
  final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
  final AtomicInteger connections = new AtomicInteger();
  /** Counted down as each accepted connection closes. */
  final CountDownLatch closed;

  /** @param expectedCloses how many connection closes {@link #closed} waits for */
  Http1Peer(int expectedCloses, BiConsumer<FullHttpRequest, ChannelHandlerContext> script) throws InterruptedException {
    this.closed = new CountDownLatch(expectedCloses);
    server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            connections.incrementAndGet();
            ch.closeFuture().addListener(f -> closed.countDown());
            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                new SimpleChannelInboundHandler<FullHttpRequest>() {
                  @Override
                  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                    byte[] body = new byte[request.content().readableBytes()];
                    request.content().getBytes(request.content().readerIndex(), body);
                    requests.add(new Request(request.protocolVersion().text(), request.method().name(), request.uri(),
                        request.headers().copy(), body));
                    script.accept(request, ctx);
                  }
                });
          }
        })
        .bind("127.0.0.1", 0).sync().channel();
  }

  int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  @Override
  public void close() {
    server.close();
    group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
  }
}
