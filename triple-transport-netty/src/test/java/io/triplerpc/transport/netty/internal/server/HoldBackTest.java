package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Backpressure before the limits: a streaming call that has written nothing itself is told to hold back
 * ({@code isReady()} false) once its connection holds half its limit of unread responses, and gets
 * {@code onReady} once the client has read it back to a quarter. The limit is 1 MiB; other calls answer
 * with 300 KiB, and the client gives HTTP/2's initial 64 KiB windows until the test opens them.
 */
class HoldBackTest {

  private static final int RESPONSE_BYTES = 300 * 1024;
  private static final long LIMIT = 1 << 20;

  private final AtomicInteger readies = new AtomicInteger();
  private ServerStream streaming;
  private final ServerTransportListener listener = (stream, request) -> {
    if (streaming == null) {
      streaming = stream;
    } else {
      stream.writeHeaders(new Metadata(), null, false);
      ByteBuf message = stream.alloc().buffer(RESPONSE_BYTES);
      message.writeZero(RESPONSE_BYTES);
      stream.writeMessage(message, true);
    }
    return new ServerStreamListener() {
      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        payload.release();
      }

      @Override
      public void onHalfClose() {}

      @Override
      public void onCancel(Status status) {}

      @Override
      public void onComplete() {}

      @Override
      public void onReady() {
        if (stream == streaming) {
          readies.incrementAndGet();
        }
      }
    };
  };

  private NettyServerTransport transport;
  private EmbeddedHttp2Peer client;

  @BeforeEach
  void connect() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
    client = EmbeddedServerConnection.open(transport, listener, ServerTransportOptions.DEFAULTS.withLimits(
        ServerTransportOptions.DEFAULTS.limits().withMaxPendingOutboundBytes(LIMIT)), Ticker.newMockTicker());
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  private void call(int streamId) {
    client.sendGrpcRequestHeaders(streamId, "/svc/Method");
    client.runPendingTasks();
  }

  private void windowUpdate(int streamId, int increment) {
    client.sendFrame(0x8, 0, streamId, ByteBuffer.allocate(4).putInt(increment).array());
  }

  @Test
  void aCallIsHeldBackFromHalfItsConnectionsLimitAndToldWhenBackAtAQuarter() {
    call(1);
    assertTrue(streaming.isReady());
    call(3);
    assertTrue(streaming.isReady(), "300 KiB less the 64 KiB window: under half of 1 MiB");
    call(5);
    assertFalse(streaming.isReady(), "536 KiB waiting: half the limit passed, though this call wrote nothing");
    assertEquals(0, readies.get());

    // The client reads stream 3 whole: 300 KiB still wait, more than a quarter.
    windowUpdate(3, RESPONSE_BYTES);
    windowUpdate(0, RESPONSE_BYTES);
    client.runPendingTasks();
    client.frames();
    assertFalse(streaming.isReady());
    assertEquals(0, readies.get());

    windowUpdate(5, RESPONSE_BYTES);
    windowUpdate(0, RESPONSE_BYTES);
    client.runPendingTasks();
    client.frames();
    assertTrue(streaming.isReady());
    assertEquals(1, readies.get(), "told once, when the backlog fell to a quarter");
  }
}
