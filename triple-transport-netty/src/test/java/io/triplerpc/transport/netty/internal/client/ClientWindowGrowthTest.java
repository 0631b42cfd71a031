package io.triplerpc.transport.netty.internal.client;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.DATA;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.SETTINGS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.transport.netty.internal.BandwidthDelayWindow;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A client connection's inbound windows grow with the bytes its server sends in one round trip. */
class ClientWindowGrowthTest {

  private static final int KIB = 1 << 10;

  private final ClientStreamListener listener = EmbeddedClientConnection.releasingListener();

  /** One gRPC message of {@code bytes} in all, from the server on {@code streamId}, in 16 KiB DATA frames. */
  private static void sendMessage(EmbeddedClientConnection connection, int streamId, int bytes) {
    ByteBuf message = Unpooled.buffer(bytes).writeByte(0).writeInt(bytes - 5).writeZero(bytes - 5);
    while (message.isReadable()) {
      byte[] frame = new byte[Math.min(Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE, message.readableBytes())];
      message.readBytes(frame);
      connection.server.sendFrame(DATA, 0, streamId, frame);
    }
    message.release();
  }

  @Test
  void aLargeResponseGrowsTheWindowsTheServerMaySendInto() throws Exception {
    try (EmbeddedClientConnection connection = EmbeddedClientConnection.withDefaults()) {
      NettyClientStream stream = connection.startCall("/test.Echo/Download", listener);
      stream.request(Integer.MAX_VALUE);
      stream.writeMessage(Unpooled.buffer().writeByte(0).writeInt(0), true);
      connection.server.runPendingTasks();
      int id = connection.server.frames().get(0).streamId();

      connection.server.sendGrpcResponseHeaders(id);
      sendMessage(connection, id, 100);
      long pings = connection.server.frames().stream().filter(f -> f.isPing(BandwidthDelayWindow.PING_DATA)).count();
      assertEquals(1, pings, "the response's DATA started a measurement");
      sendMessage(connection, id, 600 * KIB);
      connection.server.sendPingAck(BandwidthDelayWindow.PING_DATA);
      List<Frame> settings = connection.server.frames(SETTINGS);
      assertEquals(1, settings.size());
      assertEquals(2 * (100 + 600 * KIB), settings.get(0).setting(Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE));
    }
  }
}
