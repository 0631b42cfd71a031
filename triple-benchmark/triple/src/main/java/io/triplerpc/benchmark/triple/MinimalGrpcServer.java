package io.triplerpc.benchmark.triple;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.AsciiString;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.transport.netty.internal.IoTransport;
import java.net.InetSocketAddress;

/**
 * The practical ceiling of this machine and Netty for the h2load test: a bare HTTP/2 server that
 * answers every request, on the event loop, with the same fixed gRPC-shaped response (headers, one
 * framed {@code User}, trailers with {@code grpc-status: 0}) and does nothing else: no routing, no
 * decoding, no executor. {@code --port=N}; prints {@code LISTENING <port>}. On the transport Triple's
 * server would take ({@code -Dio.triplerpc.transport}).
 */
public final class MinimalGrpcServer {

  private static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
  private static final AsciiString APPLICATION_GRPC = AsciiString.cached("application/grpc");
  private static final AsciiString GRPC_STATUS = AsciiString.cached("grpc-status");
  private static final AsciiString OK = AsciiString.cached("0");

  private MinimalGrpcServer() {}

  /** A framed getUser answer: compression flag, length, protobuf bytes. */
  static ByteBuf framedUser() {
    User user = UserFixtures.getUser(UserFixtures.GET_USER);
    byte[] bytes = user.toByteArray();
    ByteBuf framed = Unpooled.buffer(5 + bytes.length);
    framed.writeByte(0).writeInt(bytes.length).writeBytes(bytes);
    return Unpooled.unreleasableBuffer(framed.asReadOnly());
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    for (String arg : args) {
      if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      }
    }
    ByteBuf response = framedUser();
    // The I/O Triple's server would run on in this JVM: epoll (else NIO), or what -Dio.triplerpc.transport names.
    IoTransport io = IoTransport.resolve(null);
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(io.ioHandlerFactory());
    Channel server = new ServerBootstrap()
        .group(group)
        .channel(io.serverSocketChannel())
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(new Builder(response).build());
          }
        })
        .bind("127.0.0.1", port)
        .syncUninterruptibly()
        .channel();
    Runtime.getRuntime().addShutdownHook(new Thread(group::shutdownGracefully));
    System.out.println("LISTENING " + ((InetSocketAddress) server.localAddress()).getPort());
    server.closeFuture().syncUninterruptibly();
  }

  private static final class Builder extends AbstractHttp2ConnectionHandlerBuilder<Handler, Builder> {
    private final ByteBuf response;

    Builder(ByteBuf response) {
      this.response = response;
      server(true);
      initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(1000));
    }

    @Override
    protected Handler build(
        Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initialSettings) {
      Handler handler = new Handler(decoder, encoder, initialSettings, response);
      frameListener(handler.listener);
      return handler;
    }

    @Override
    public Handler build() {
      return super.build();
    }
  }

  private static final class Handler extends Http2ConnectionHandler {
    final Http2FrameAdapter listener;

    Handler(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings, ByteBuf response) {
      super(decoder, encoder, settings);
      this.listener = new Http2FrameAdapter() {
        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
          if (endOfStream) {
            respond(ctx, streamId);
          }
          return data.readableBytes() + padding;
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
            boolean endOfStream) {
          if (endOfStream) {
            respond(ctx, streamId);
          }
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
            short weight, boolean exclusive, int padding, boolean endOfStream) {
          onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        }

        private void respond(ChannelHandlerContext ctx, int streamId) {
          Http2Headers headers = new DefaultHttp2Headers().status("200").add(CONTENT_TYPE, APPLICATION_GRPC);
          encoder().writeHeaders(ctx, streamId, headers, 0, false, ctx.newPromise());
          encoder().writeData(ctx, streamId, response.duplicate(), 0, false, ctx.newPromise());
          encoder().writeHeaders(ctx, streamId, new DefaultHttp2Headers().add(GRPC_STATUS, OK), 0, true, ctx.newPromise());
        }
      };
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
      // One flush per read batch: what any server that answers on the event loop would do.
      ctx.flush();
      super.channelReadComplete(ctx);
    }
  }
}
