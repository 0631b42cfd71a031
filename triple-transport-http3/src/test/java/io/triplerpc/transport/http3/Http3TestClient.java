package io.triplerpc.transport.http3;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
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
import io.netty.handler.codec.http3.Http3GoAwayFrame;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.util.ReferenceCountUtil;
import io.triplerpc.testing.TestCertificates;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Netty's own HTTP/3 client, as a test peer: one QUIC connection to a server on loopback that trusts the
 * test CA, and requests sent as HEADERS, DATA frames and FIN, their responses collected whole. It records
 * the server's GOAWAY frames.
 */
final class Http3TestClient implements AutoCloseable {

  /** A response as it came: its head, its body's bytes, its trailers (null if none). */
  record Response(Http3Headers head, byte[] body, Http3Headers trailers) {}

  private final EventLoopGroup group;
  private final Channel udp;
  private final QuicChannel connection;
  /** The id of the server's first GOAWAY, when it comes. */
  final CompletableFuture<Long> firstGoAway = new CompletableFuture<>();
  /** The id of the server's GOAWAY naming a real stream (its second), when it comes. */
  final CompletableFuture<Long> finalGoAway = new CompletableFuture<>();

  private Http3TestClient(EventLoopGroup group, Channel udp, QuicChannel connection) {
    this.group = group;
    this.udp = udp;
    this.connection = connection;
  }

  static Http3TestClient connect(InetSocketAddress server) throws Exception {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    Channel udp = udpChannel(group, server, 32 << 20, 16 << 20, 30);
    Http3TestClient[] self = new Http3TestClient[1];
    ChannelHandler control = new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http3GoAwayFrame goAway) {
          self[0].goAway(goAway.id());
        }
        ReferenceCountUtil.release(msg);
      }
    };
    QuicChannel connection = QuicChannel.newBootstrap(udp)
        .handler(new Http3ClientConnectionHandler(control, null, null, null, true))
        .remoteAddress(server)
        .connect()
        .get(10, TimeUnit.SECONDS);
    self[0] = new Http3TestClient(group, udp, connection);
    return self[0];
  }

  /**
   * A QUIC connection to {@code server} with HTTP/3's control streams and nothing else, on {@code group}, for
   * tests that write request streams of their own: its flow-control windows are {@code connectionWindow} and
   * {@code streamWindow} (for the streams it opens), never raised unless it reads.
   */
  static QuicChannel rawConnection(EventLoopGroup group, InetSocketAddress server, long connectionWindow,
      long streamWindow) throws Exception {
    Channel udp = udpChannel(group, server, connectionWindow, streamWindow, 60);
    return QuicChannel.newBootstrap(udp)
        .handler(new Http3ClientConnectionHandler())
        .remoteAddress(server)
        .connect()
        .get(10, TimeUnit.SECONDS);
  }

  /** A UDP channel bound on 127.0.0.1 with a QUIC client codec for {@code server}, trusting the test CA. */
  private static Channel udpChannel(EventLoopGroup group, InetSocketAddress server, long connectionWindow,
      long streamWindow, int idleSeconds) throws Exception {
    QuicSslContext tls = QuicSslContextBuilder.forClient()
        .trustManager(TestCertificates.caCertificate().toFile())
        .applicationProtocols(Http3.supportedApplicationProtocols())
        .build();
    ChannelHandler codec = Http3.newQuicClientCodecBuilder()
        .sslContext(tls)
        // The name the server's certificate is checked against (Netty 4.2 verifies host names by default).
        .sslEngineProvider(quic -> tls.newEngine(quic.alloc(), "localhost", server.getPort()))
        .maxIdleTimeout(idleSeconds, TimeUnit.SECONDS)
        .initialMaxData(connectionWindow)
        .initialMaxStreamDataBidirectionalLocal(streamWindow)
        .build();
    ChannelFuture bound = new Bootstrap().group(group).channel(NioDatagramChannel.class).handler(codec)
        .bind(new InetSocketAddress("127.0.0.1", 0));
    return bound.sync().channel();
  }

  /** The QUIC connection, for what the tests ask of QUIC itself. */
  QuicChannel connection() {
    return connection;
  }

  /** The largest client request stream id: what a graceful close's first GOAWAY names. */
  static final long MAX_REQUEST_STREAM_ID = (1L << 62) - 4;

  private void goAway(long id) {
    if (!firstGoAway.complete(id) || id < MAX_REQUEST_STREAM_ID) {
      finalGoAway.complete(id);
    }
  }

  /** A request's head: POST to {@code path} with {@code contentType}, and {@code te: trailers} for gRPC. */
  static Http3Headers post(String path, String contentType) {
    Http3Headers head = new DefaultHttp3Headers()
        .method("POST").scheme("https").authority("localhost").path(path);
    head.add("content-type", contentType);
    head.add("te", "trailers");
    return head;
  }

  /** Sends {@code head} and {@code body} (owned), then FIN; the response once the server's FIN came. */
  CompletableFuture<Response> send(Http3Headers head, ByteBuf body) throws Exception {
    CompletableFuture<Response> response = new CompletableFuture<>();
    QuicStreamChannel stream = Http3.newRequestStream(connection, new Collector(response))
        .get(10, TimeUnit.SECONDS);
    stream.write(new DefaultHttp3HeadersFrame(head));
    stream.writeAndFlush(new DefaultHttp3DataFrame(body)).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
    return response;
  }

  /** A gRPC message: the 5-byte prefix, uncompressed, then {@code message}. */
  static ByteBuf grpcFrame(byte[] message) {
    return Unpooled.buffer(5 + message.length).writeByte(0).writeInt(message.length).writeBytes(message);
  }

  static <T> T await(CompletableFuture<T> future) throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(20, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    connection.close().get(10, TimeUnit.SECONDS);
    udp.close().get(10, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
  }

  /** Collects one response stream. */
  private static final class Collector extends Http3RequestStreamInboundHandler {
    private final CompletableFuture<Response> response;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private Http3Headers head;
    private Http3Headers trailers;

    Collector(CompletableFuture<Response> response) {
      this.response = response;
    }

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
      if (head == null) {
        head = frame.headers();
      } else {
        trailers = frame.headers();
      }
    }

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
      try {
        ByteBuf content = frame.content();
        byte[] bytes = new byte[content.readableBytes()];
        content.readBytes(bytes);
        body.writeBytes(bytes);
      } finally {
        frame.release();
      }
    }

    @Override
    protected void channelInputClosed(ChannelHandlerContext ctx) {
      response.complete(new Response(head, body.toByteArray(), trailers));
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      response.completeExceptionally(new IllegalStateException("stream closed before the response ended"));
      super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      response.completeExceptionally(cause);
      ctx.close();
    }
  }
}
