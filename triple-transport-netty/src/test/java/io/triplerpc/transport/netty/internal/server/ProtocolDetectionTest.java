package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What protocol detection leaves in a connection's pipeline once the first bytes have decided. */
class ProtocolDetectionTest {

  private final ServerTransportListener listener = (stream, request) -> {
    throw new AssertionError("no call expected");
  };
  private NettyServerTransport transport;
  private EmbeddedChannel channel;

  @BeforeEach
  void start() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
    channel = new EmbeddedChannel();
    transport.initConnection(channel, listener, ServerTransportOptions.DEFAULTS);
  }

  @AfterEach
  void stop() throws Exception {
    channel.finishAndReleaseAll();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  private List<Class<?>> handlers() {
    List<Class<?>> types = new ArrayList<>();
    for (Map.Entry<String, ChannelHandler> entry : channel.pipeline()) {
      types.add(entry.getValue().getClass());
    }
    return types;
  }

  @Test
  void http2PrefaceLeavesTheHttp2HandlerAlone() {
    channel.writeInbound(Http2CodecUtil.connectionPrefaceBuf());
    assertEquals(List.of(NettyServerHandler.class), handlers());
  }

  @Test
  void aConnectionDetectedAsHttp2GetsItsWideConnectionWindow() {
    io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer client =
        new io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer(channel, io.netty.util.concurrent.Ticker.newMockTicker(), false);
    client.sendClientPreface();
    List<io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame> updates = client.frames(0x8);
    assertEquals(1, updates.size(), "one WINDOW_UPDATE, for the connection");
    assertEquals(0, updates.get(0).streamId());
    int increment = java.nio.ByteBuffer.wrap(updates.get(0).payload()).getInt();
    assertEquals(ServerTransportOptions.DEFAULTS.limits().initialWindowSize() - Http2CodecUtil.DEFAULT_WINDOW_SIZE, increment,
        "from HTTP/2's 64 KiB to the stream window, as when the handler sees the connection open");
  }

  @Test
  void prefaceInSmallPiecesIsStillHttp2() {
    byte[] preface = new byte[Http2CodecUtil.connectionPrefaceBuf().readableBytes()];
    Http2CodecUtil.connectionPrefaceBuf().getBytes(0, preface);
    for (byte b : preface) {
      channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
    }
    assertEquals(List.of(NettyServerHandler.class), handlers());
  }

  @Test
  void anythingElseIsHttp11() {
    channel.writeInbound(Unpooled.copiedBuffer("POST /a/b HTTP/1.1\r\n", StandardCharsets.US_ASCII));
    List<Class<?>> types = handlers();
    assertTrue(types.contains(HttpServerCodec.class), types::toString);
    assertTrue(types.contains(Http1ServerHandler.class), types::toString);
    assertTrue(!types.contains(NettyServerHandler.class), types::toString);
  }

  @Test
  void h2cUpgradeLeavesTheHttp2HandlerAlone() {
    channel.writeInbound(Unpooled.copiedBuffer("GET /a/b HTTP/1.1\r\nHost: x\r\n"
        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n",
        StandardCharsets.US_ASCII));
    assertEquals(List.of(NettyServerHandler.class), handlers());
  }

}
