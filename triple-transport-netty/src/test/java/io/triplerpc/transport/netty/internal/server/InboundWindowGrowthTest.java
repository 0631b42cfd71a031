package io.triplerpc.transport.netty.internal.server;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.DATA;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.FLAG_ACK;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.GOAWAY;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.RST_STREAM;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.SETTINGS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.internal.stream.Http2Limits;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.BandwidthDelayWindow;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import io.triplerpc.transport.netty.internal.GrpcHttp2ConnectionHandler;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A server connection's inbound windows grow with the bytes a client sends in one round trip. */
class InboundWindowGrowthTest {

  private static final int KIB = 1 << 10;
  private static final int MIB = 1 << 20;

  private final MockTicker ticker = Ticker.newMockTicker();
  private final ServerTransportListener listener = (stream, request) -> new DiscardingStreamListener();
  private NettyServerTransport transport;
  private EmbeddedHttp2Peer client;

  private void connect(ServerTransportOptions options) throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
    client = EmbeddedServerConnection.open(transport, listener, options, ticker);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  /** One gRPC message of {@code bytes} in all (its 5-byte prefix included), in DATA frames of 16 KiB. */
  private void sendMessage(int streamId, int bytes) {
    ByteBuffer message = ByteBuffer.allocate(bytes).put((byte) 0).putInt(bytes - 5);
    byte[] all = message.array();
    for (int offset = 0; offset < bytes; offset += Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE) {
      int length = Math.min(Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE, bytes - offset);
      byte[] frame = new byte[length];
      System.arraycopy(all, offset, frame, 0, length);
      client.sendFrame(DATA, 0, streamId, frame);
    }
  }

  private static long measurementPings(List<Frame> frames) {
    return frames.stream().filter(f -> f.isPing(BandwidthDelayWindow.PING_DATA)).count();
  }

  private GrpcHttp2ConnectionHandler handler() {
    return client.channel().pipeline().get(GrpcHttp2ConnectionHandler.class);
  }

  @Test
  void aRoundTripOfManyBytesGrowsEveryWindowAtOnce() throws Exception {
    connect(ServerTransportOptions.DEFAULTS);
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    sendMessage(1, 1000);
    assertEquals(1, measurementPings(client.frames()), "DATA read: a PING starts a measurement");

    sendMessage(1, 700 * KIB);
    ticker.advance(1, TimeUnit.MILLISECONDS);
    client.sendPingAck(BandwidthDelayWindow.PING_DATA);
    int grown = 2 * (1000 + 700 * KIB);
    List<Frame> settings = client.frames(SETTINGS);
    assertEquals(1, settings.size());
    assertFalse(settings.get(0).has(FLAG_ACK));
    assertEquals(grown, settings.get(0).setting(Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE),
        "twice the bytes of the read that started the measurement and of its round trip");
    assertEquals(grown, handler().inboundWindow());
    assertEquals(grown, handler().connection().local().flowController()
        .initialWindowSize(handler().connection().connectionStream()), "the connection's window widened");

    // The client may use the new window as soon as it reads the SETTINGS, before its ACK reaches here.
    client.sendGrpcRequestHeaders(3, "/svc/Method");
    sendMessage(3, 1200 * KIB);
    List<Frame> frames = client.frames();
    assertEquals(List.of(), frames.stream().filter(f -> f.type() == RST_STREAM || f.type() == GOAWAY).toList(),
        "1.2 MiB on a new stream fits its grown window");
    assertEquals(1, measurementPings(frames), "grown: the next measurement starts with the next DATA");

    client.sendSettingsAck();
    assertEquals(grown, handler().connection().local().flowController().initialWindowSize(),
        "the ACK applies the same value again");
  }

  @Test
  void smallCallsPingOnceInAPause() throws Exception {
    connect(ServerTransportOptions.DEFAULTS);
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    sendMessage(1, 100);
    assertEquals(1, measurementPings(client.frames()));
    sendMessage(1, 100);
    client.sendPingAck(BandwidthDelayWindow.PING_DATA);
    assertEquals(List.of(), client.frames(SETTINGS), "100 bytes in a round trip ask for nothing");

    for (int call = 0; call < 10; call++) {
      sendMessage(1, 100);
    }
    assertEquals(0, measurementPings(client.frames()), "no PING within the pause");
    ticker.advance(BandwidthDelayWindow.PAUSE_NANOS, TimeUnit.NANOSECONDS);
    sendMessage(1, 100);
    assertEquals(1, measurementPings(client.frames()));
    assertEquals(MIB, handler().inboundWindow());
  }

  @Test
  void noMeasurementWhenTheWindowCannotGrow() throws Exception {
    Http2Limits defaults = Http2Limits.SERVER_DEFAULTS;
    connect(ServerTransportOptions.DEFAULTS.withLimits(new Http2Limits(defaults.maxInboundMessageSize(),
        defaults.maxHeaderListSize(), MIB, MIB, defaults.maxQueuedControlFrames(), defaults.maxRstFramesPerWindow(),
        defaults.rstFramesWindowSeconds(), defaults.maxConsecutiveEmptyDataFrames(),
        defaults.maxPendingOutboundBytes())));
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    sendMessage(1, 900 * KIB);
    assertEquals(0, measurementPings(client.frames()));
    assertEquals(MIB, handler().inboundWindow());
  }
}
