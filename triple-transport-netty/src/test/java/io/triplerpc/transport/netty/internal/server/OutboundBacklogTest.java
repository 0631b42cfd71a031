package io.triplerpc.transport.netty.internal.server;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.GOAWAY;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.RST_STREAM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a server connection holds for a client that does not read its responses: each call answers
 * with 300 KiB (but a streaming call that a test asks to write nothing), and the client gives no
 * flow-control window beyond HTTP/2's initial 64 KiB unless the test says so. The limit is 1 MiB.
 */
class OutboundBacklogTest {

  private static final int RESPONSE_BYTES = 300 * 1024;
  private static final long LIMIT = 1 << 20;
  private static final long ENHANCE_YOUR_CALM = 0xb;

  private final List<Status> cancels = new ArrayList<>();
  /** Whether the next call writes nothing and becomes {@link #silent}. */
  private boolean nextCallSilent;
  private ServerStream silent;
  private final AtomicInteger silentReadies = new AtomicInteger();
  private final ServerTransportListener listener = (stream, request) -> {
    int index = cancels.size();
    cancels.add(null);
    if (nextCallSilent) {
      nextCallSilent = false;
      silent = stream;
      return new DiscardingStreamListener(status -> cancels.set(index, status), silentReadies::incrementAndGet);
    }
    respond(stream);
    return new DiscardingStreamListener(status -> cancels.set(index, status));
  };

  private NettyServerTransport transport;
  private EmbeddedHttp2Peer client;
  private NettyServerHandler handler;

  private static void respond(ServerStream stream) {
    stream.writeHeaders(new Metadata(), null, false);
    ByteBuf message = stream.alloc().buffer(RESPONSE_BYTES);
    message.writeZero(RESPONSE_BYTES);
    stream.writeMessage(message, true);
  }

  @BeforeEach
  void connect() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
    client = EmbeddedServerConnection.open(transport, listener, ServerTransportOptions.DEFAULTS.withLimits(
        ServerTransportOptions.DEFAULTS.limits().withMaxPendingOutboundBytes(LIMIT)), Ticker.newMockTicker());
    handler = client.channel().pipeline().get(NettyServerHandler.class);
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
  void theCallThatPassesTheLimitIsResetAndAClientThatStillReadsNothingLosesTheConnection() {
    for (int id = 1; id <= 5; id += 2) {
      call(id);
    }
    assertTrue(client.frames(RST_STREAM).isEmpty(), "three responses, 900 KiB less the 64 KiB window: under 1 MiB");
    assertTrue(handler.backlogBytes() <= LIMIT);

    call(7);
    List<Frame> resets = client.frames(RST_STREAM);
    assertEquals(1, resets.size());
    assertEquals(7, resets.get(0).streamId());
    assertEquals(ENHANCE_YOUR_CALM, resets.get(0).errorCode());
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, cancels.get(3).code(), String.valueOf(cancels.get(3)));
    assertNull(cancels.get(0), "the calls under the limit go on");
    assertTrue(handler.backlogBytes() <= LIMIT, "the reset stream's response left the backlog: " + handler.backlogBytes());

    call(9);
    List<Frame> goAways = client.frames(GOAWAY);
    assertEquals(1, goAways.size(), "reset once, and still the client reads nothing");
    assertEquals(ENHANCE_YOUR_CALM, goAways.get(0).errorCode());
    assertTrue(goAways.get(0).debugData().startsWith("client does not read"), goAways.get(0).debugData());
    assertFalse(client.channel().isActive());
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, cancels.get(0).code());
    assertEquals(0, handler.backlogBytes(), "every response was dropped with its stream");
  }

  @Test
  void connectStreamingResponsesCountInTheBacklogToo() {
    for (int id = 1; id <= 7; id += 2) {
      Http2Headers headers = new DefaultHttp2Headers().method("POST").scheme("http").path("/svc/Stream")
          .authority("localhost");
      headers.add("content-type", "application/connect+proto");
      client.sendHeaders(id, headers, false);
      client.runPendingTasks();
    }
    List<Frame> resets = client.frames(RST_STREAM);
    assertEquals(1, resets.size(), "the fourth 300 KiB response passes 1 MiB");
    assertEquals(7, resets.get(0).streamId());
    assertEquals(ENHANCE_YOUR_CALM, resets.get(0).errorCode());
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, cancels.get(3).code(), String.valueOf(cancels.get(3)));
    assertNull(cancels.get(0), "the calls under the limit go on");
    assertTrue(handler.backlogBytes() <= LIMIT, "the reset stream's response left the backlog: " + handler.backlogBytes());
  }

  @Test
  void aClientThatReadsBetweenResetsKeepsItsConnection() {
    for (int id = 1; id <= 7; id += 2) {
      call(id);
    }
    assertEquals(1, client.frames(RST_STREAM).size());
    // The client opens its connection window (and stream 1's): it reads, slowly.
    windowUpdate(0, 64 * 1024);
    call(9);
    List<Frame> frames = client.frames();
    assertEquals(1, frames.stream().filter(f -> f.type() == RST_STREAM).count(),
        () -> "over the limit again: another reset, not a GOAWAY: " + frames + " " + cancels);
    assertTrue(client.channel().isActive());
    assertTrue(handler.backlogBytes() <= LIMIT);
  }

  @Test
  void aClientThatReadsNeverMeetsTheLimit() {
    for (int id = 1; id <= 41; id += 2) {
      call(id);
      // The client reads this response whole: it opens its stream's and its connection's windows.
      windowUpdate(id, RESPONSE_BYTES);
      windowUpdate(0, RESPONSE_BYTES + 10);
    }
    client.frames();
    assertTrue(client.channel().isActive());
    assertEquals(0, handler.backlogBytes(), "twenty-one responses of 300 KiB, all written");
    assertTrue(cancels.stream().allMatch(status -> status == null), cancels::toString);
  }

  /**
   * Backpressure before the limit: a streaming call that has written nothing itself is told to hold
   * back ({@code isReady()} false) once its connection holds half its limit of unread responses, and
   * gets {@code onReady} once the client has read it back to a quarter.
   */
  @Test
  void aCallIsHeldBackFromHalfItsConnectionsLimitAndToldWhenBackAtAQuarter() {
    nextCallSilent = true;
    call(1);
    assertTrue(silent.isReady());
    call(3);
    assertTrue(silent.isReady(), "300 KiB less the 64 KiB window: under half of 1 MiB");
    call(5);
    assertFalse(silent.isReady(), "536 KiB waiting: half the limit passed, though this call wrote nothing");
    assertEquals(0, silentReadies.get());

    // The client reads stream 3 whole: 300 KiB still wait, more than a quarter.
    windowUpdate(3, RESPONSE_BYTES);
    windowUpdate(0, RESPONSE_BYTES);
    client.runPendingTasks();
    client.frames();
    assertFalse(silent.isReady());
    assertEquals(0, silentReadies.get());

    windowUpdate(5, RESPONSE_BYTES);
    windowUpdate(0, RESPONSE_BYTES);
    client.runPendingTasks();
    client.frames();
    assertTrue(silent.isReady());
    assertEquals(1, silentReadies.get(), "told once, when the backlog fell to a quarter");
  }
}
