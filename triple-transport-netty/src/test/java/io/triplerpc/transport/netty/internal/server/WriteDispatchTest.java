package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server's HTTP/2 handler takes its commands and nothing else; Netty's own frames still go out. */
class WriteDispatchTest {

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
    channel.writeInbound(Http2CodecUtil.connectionPrefaceBuf());
    // An empty SETTINGS frame from the client.
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}));
  }

  @AfterEach
  void stop() throws Exception {
    channel.finishAndReleaseAll();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aBufferWrittenAroundTheQueueIsRefusedAndReleased() {
    ByteBuf stray = Unpooled.buffer().writeBytes(new byte[] {1, 2, 3});
    ChannelFuture written = channel.writeAndFlush(stray);
    assertFalse(written.isSuccess());
    assertInstanceOf(UnsupportedOperationException.class, written.cause());
    assertEquals(0, stray.refCnt(), "the refused buffer is released");
  }

  @Test
  void nettysOwnFramesStillGoOutBelowTheHandler() {
    // The server's SETTINGS, then its ACK of the client's: written by Netty, not through write().
    boolean settingsAck = false;
    for (ByteBuf out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
      try {
        while (out.readableBytes() >= 9) {
          int length = out.readUnsignedMedium();
          int type = out.readUnsignedByte();
          int flags = out.readUnsignedByte();
          out.skipBytes(4 + length);
          settingsAck |= type == 0x4 && (flags & 0x1) != 0;
        }
      } finally {
        out.release();
      }
    }
    assertTrue(settingsAck, "no SETTINGS ACK");
  }
}
