package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamType;
import io.netty.util.ReferenceCountUtil;
import io.triplerpc.TripleServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile HTTP/3 peers: request streams written byte by byte, with frames out of order, a header section
 * that refers to a QPACK dynamic table the server never granted, one larger than the server's limit, and more
 * request streams than it allows. Each gets a closed stream or connection, none reaches the service, and the
 * server serves a well-behaved client afterwards (Netty's leak detector runs at PARANOID throughout).
 */
class Http3AbuseTest {

  /** HTTP/3 frame types (RFC 9114, section 7.2). */
  private static final int DATA = 0x0;
  private static final int HEADERS = 0x1;

  private final EchoImpl echo = new EchoImpl();
  private final AtomicInteger calls = new AtomicInteger();
  private TripleServer server;
  private InetSocketAddress address;
  private EventLoopGroup group;

  @BeforeEach
  void start() {
    server = Http3Peers.server()
        .maxConcurrentStreams(3)
        .maxHeaderListSize(8 << 10)
        .intercept(new io.triplerpc.ServerInterceptor() {
          @Override
          public <Q, R> io.triplerpc.ServerCall.Listener<Q> interceptCall(io.triplerpc.ServerCall<Q, R> call,
              io.triplerpc.Metadata headers, io.triplerpc.ServerCallHandler<Q, R> next) {
            calls.incrementAndGet();
            return next.startCall(call, headers);
          }
        })
        .addService(Echo.class, echo)
        .build()
        .start();
    address = new InetSocketAddress("127.0.0.1", server.port());
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  }

  @AfterEach
  void stop() throws Exception {
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
    Http3Peers.stop(server);
  }

  @Test
  void dataBeforeHeadersClosesTheConnection() throws Exception {
    QuicChannel connection = connect();
    sendRaw(connection, frame(DATA, "abc".getBytes(StandardCharsets.US_ASCII)));
    assertClosedAndServedOn(connection);
  }

  @Test
  void aHeaderSectionThatNeedsTheDynamicTableClosesTheConnection() throws Exception {
    QuicChannel connection = connect();
    // Required Insert Count 1 (the table has no entries, so any is an error), base 0, then the dynamic entry 0.
    sendRaw(connection, frame(HEADERS, new byte[] {0x01, 0x00, (byte) 0x80}));
    assertClosedAndServedOn(connection);
  }

  @Test
  void aHeaderSectionOverTheLimitReachesNoCall() throws Exception {
    QuicChannel connection = connect();
    // The same request with a short user-agent is a call (of a unary method, with no message: it fails, but it
    // reaches the interceptors), so the long one is kept from the service by its size alone.
    QuicStreamChannel small = sendRaw(connection, frame(HEADERS, grpcRequestHead(10)));
    assertTrue(small.closeFuture().await(20, TimeUnit.SECONDS), "the short request was answered");
    assertEquals(1, calls.get(), "the short request is a call");

    QuicStreamChannel large = sendRaw(connection, frame(HEADERS, grpcRequestHead(20_000)));
    assertTrue(large.closeFuture().await(20, TimeUnit.SECONDS), "the long request's stream closed");
    assertEquals(1, calls.get(), "the long request reached no call");
    assertServedByANewClient();
  }

  /**
   * A QPACK field section (static table and literals only) of a gRPC request to Echo/Unary, with a user-agent of
   * {@code userAgentLength} bytes.
   */
  private static byte[] grpcRequestHead(int userAgentLength) {
    ByteBuf section = Unpooled.buffer();
    section.writeByte(0x00).writeByte(0x00);            // Required Insert Count 0, base 0
    section.writeByte(0xC0 | 20);                       // static 20, :method POST
    section.writeByte(0xC0 | 23);                       // static 23, :scheme https
    literal(section, 0, "localhost");                   // static name 0, :authority
    literal(section, 1, "/triple.http3.Echo/Unary");    // static name 1, :path
    literal(section, 44, "application/grpc");           // static name 44, content-type
    section.writeByte(0x20 | 2).writeBytes("te".getBytes(StandardCharsets.US_ASCII)); // literal name te
    section.writeByte(8).writeBytes("trailers".getBytes(StandardCharsets.US_ASCII));
    literal(section, 95, "a".repeat(userAgentLength));  // static name 95, user-agent
    byte[] bytes = new byte[section.readableBytes()];
    section.readBytes(bytes);
    return bytes;
  }

  /** A field line with a literal value and the static table's name {@code index} (RFC 9204, section 4.5.4). */
  private static void literal(ByteBuf out, int index, String value) {
    prefixed(out, 0x50, 4, index);
    prefixed(out, 0x00, 7, value.length());
    out.writeBytes(value.getBytes(StandardCharsets.US_ASCII));
  }

  /** A QPACK prefixed integer of {@code bits} bits after the pattern {@code high} (RFC 7541, section 5.1). */
  private static void prefixed(ByteBuf out, int high, int bits, int value) {
    int max = (1 << bits) - 1;
    if (value < max) {
      out.writeByte(high | value);
      return;
    }
    out.writeByte(high | max);
    int rest = value - max;
    while (rest >= 0x80) {
      out.writeByte((rest & 0x7F) | 0x80);
      rest >>>= 7;
    }
    out.writeByte(rest);
  }

  @Test
  void noMoreRequestStreamsThanAllowedCanBeOpenedAtOnce() throws Exception {
    try (Http3TestClient client = Http3TestClient.connect(address)) {
      java.util.List<CompletableFuture<Http3TestClient.Response>> answers = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        answers.add(client.send(Http3TestClient.post("/triple.http3.Echo/Hold", "application/grpc"),
            Http3TestClient.grpcFrame(StringValue.of("held").toByteArray())));
      }
      java.util.List<CompletableFuture<StringValue>> held = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        held.add(echo.held.poll(20, TimeUnit.SECONDS));
      }
      // maxConcurrentStreams is QUIC's initial_max_streams_bidi: with three open, the client may open none.
      assertEquals(0, client.connection().peerAllowedStreams(QuicStreamType.BIDIRECTIONAL));
      io.netty.util.concurrent.Future<QuicStreamChannel> fourth =
          client.connection().createStream(QuicStreamType.BIDIRECTIONAL, new ChannelInboundHandlerAdapter());
      assertTrue(fourth.await(10, TimeUnit.SECONDS) && !fourth.isSuccess(), "a fourth stream is refused");
      held.forEach(call -> call.complete(StringValue.of("done")));
      for (CompletableFuture<Http3TestClient.Response> answer : answers) {
        assertEquals("0", Http3TestClient.await(answer).trailers().get("grpc-status").toString());
      }
      assertEquals(3, calls.get());
    }
  }

  /** The connection closes, no call reached the service, and a new client is served. */
  private void assertClosedAndServedOn(QuicChannel connection) throws Exception {
    assertTrue(connection.closeFuture().await(20, TimeUnit.SECONDS), "the connection closed");
    assertEquals(0, calls.get(), "no call reached the service");
    assertServedByANewClient();
  }

  private void assertServedByANewClient() throws Exception {
    try (Http3TestClient client = Http3TestClient.connect(address)) {
      Http3TestClient.Response echoed = Http3TestClient.await(client.send(
          Http3TestClient.post("/triple.http3.Echo/Unary", "application/grpc"),
          Http3TestClient.grpcFrame(StringValue.of("fine").toByteArray())));
      assertEquals("0", echoed.trailers().get("grpc-status").toString());
    }
  }

  /** Opens a bidirectional stream on which the test writes bytes of its own, then FIN. */
  private static QuicStreamChannel sendRaw(QuicChannel connection, ByteBuf bytes) throws Exception {
    QuicStreamChannel stream = connection.createStream(QuicStreamType.BIDIRECTIONAL, new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
      }

      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
      }
    }).get(10, TimeUnit.SECONDS);
    stream.writeAndFlush(bytes).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
    return stream;
  }

  private static ByteBuf frame(int type, byte[] payload) {
    ByteBuf frame = Unpooled.buffer(payload.length + 16);
    writeVarint(frame, type);
    writeVarint(frame, payload.length);
    return frame.writeBytes(payload);
  }

  /** A QUIC variable-length integer (RFC 9000, section 16). */
  private static void writeVarint(ByteBuf out, long value) {
    if (value < 1 << 6) {
      out.writeByte((int) value);
    } else if (value < 1 << 14) {
      out.writeShort((int) (0x4000 | value));
    } else {
      out.writeInt((int) (0x80000000L | value));
    }
  }

  private QuicChannel connect() throws Exception {
    return Http3TestClient.rawConnection(group, address, 1 << 20, 256 << 10);
  }
}
