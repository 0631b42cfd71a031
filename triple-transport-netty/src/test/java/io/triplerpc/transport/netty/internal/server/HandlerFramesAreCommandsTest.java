package io.triplerpc.transport.netty.internal.server;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.DATA;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.FLAG_END_STREAM;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.GOAWAY;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.HEADERS;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.PING;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.SETTINGS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.internal.stream.ServerConnectionTimers;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.BandwidthDelayWindow;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import io.triplerpc.transport.netty.internal.write.GracefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Frames the server's handler decides on itself, outside any call's command (an answer to a request
 * that opens no call, the GOAWAY of an abuse limit, the second GOAWAY of a graceful close, a window
 * measurement's PING and the SETTINGS that grow the window), are commands of the connection's queue:
 * each one counts there, and its frames go out as before.
 */
class HandlerFramesAreCommandsTest {

  private static final long OFF = KeepAlive.OFF;

  private final MockTicker ticker = Ticker.newMockTicker();
  private final ServerTransportListener listener = (stream, request) -> new DiscardingStreamListener();
  private NettyServerTransport transport;
  private EmbeddedHttp2Peer client;
  private WriteQueue queue;

  @BeforeEach
  void bind() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  private void connect(ServerTransportOptions options) {
    client = EmbeddedServerConnection.open(transport, listener, options, ticker);
    queue = client.channel().pipeline().get(NettyServerHandler.class).writeQueue();
  }

  @Test
  void aGrpcRequestAnsweredWithoutACallIsOneCommand() {
    connect(ServerTransportOptions.DEFAULTS);
    long before = queue.commandsWritten();
    Http2Headers get = new DefaultHttp2Headers().method("GET").scheme("http").path("/svc/Method").authority("localhost");
    get.add("content-type", "application/grpc");
    client.sendHeaders(1, get, false);
    List<Frame> frames = client.frames();
    assertEquals(1, queue.commandsWritten() - before, frames::toString);
    assertEquals(List.of(HEADERS, DATA), frames.stream().map(Frame::type).toList(), "405 and its text");
    assertEquals("405", client.headers(frames.get(0)).status().toString());
    assertTrue(frames.get(1).has(FLAG_END_STREAM));
  }

  @Test
  void theGoAwayOfAClientThatPingsTooOftenIsACommand() {
    connect(ServerTransportOptions.DEFAULTS.withTimers(new KeepAlive(OFF, TimeUnit.SECONDS.toNanos(20), true),
        new ServerConnectionTimers(TimeUnit.SECONDS.toNanos(60), false, OFF, OFF, OFF, OFF, OFF, OFF)));
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    for (int strike = 1; strike <= KeepAliveEnforcer.MAX_PING_STRIKES; strike++) {
      client.advance(Duration.ofSeconds(10));
      client.sendPing(strike);
    }
    client.frames();
    long before = queue.commandsWritten();
    client.advance(Duration.ofSeconds(10));
    client.sendPing(3);
    List<Frame> goAways = client.frames(GOAWAY);
    assertEquals(1, queue.commandsWritten() - before);
    assertEquals(1, goAways.size());
    assertEquals("too_many_pings", goAways.get(0).debugData());
    assertFalse(client.channel().isActive());
  }

  @Test
  void theSecondGoAwayOfAGracefulCloseIsACommand() {
    connect(ServerTransportOptions.DEFAULTS);
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    queue.enqueue(new GracefulCloseCommand(GracefulCloseCommand.SHUTDOWN), true);
    client.runPendingTasks();
    List<Frame> first = client.frames();
    assertEquals(List.of(GOAWAY, PING), first.stream().map(Frame::type).toList());
    assertEquals(Integer.MAX_VALUE, first.get(0).lastStreamId());
    long before = queue.commandsWritten();
    client.sendPingAck(NettyServerHandler.GOAWAY_PING_DATA);
    List<Frame> second = client.frames(GOAWAY);
    assertEquals(1, queue.commandsWritten() - before);
    assertEquals(1, second.size());
    assertEquals(1, second.get(0).lastStreamId(), "names the last stream the server processed");
    assertTrue(client.channel().isActive(), "the call in flight goes on");
  }

  @Test
  void aWindowMeasurementsPingAndTheSettingsThatGrowTheWindowAreCommands() {
    connect(ServerTransportOptions.DEFAULTS);
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    long before = queue.commandsWritten();
    // The prefix of a message of 44 frames of 16 KiB (704 KiB), which follow.
    client.sendFrame(DATA, 0, 1, new byte[] {0, 0, 0x0b, 0, 0});
    assertEquals(1, client.frames().stream().filter(f -> f.isPing(BandwidthDelayWindow.PING_DATA)).count());
    assertEquals(1, queue.commandsWritten() - before, "the PING");

    before = queue.commandsWritten();
    // Enough in a round trip to grow the window.
    for (int frame = 0; frame < 44; frame++) {
      client.sendFrame(DATA, 0, 1, new byte[16 * 1024]);
    }
    ticker.advance(1, TimeUnit.MILLISECONDS);
    client.sendPingAck(BandwidthDelayWindow.PING_DATA);
    List<Frame> settings = client.frames(SETTINGS);
    assertEquals(1, settings.size());
    assertEquals(1, queue.commandsWritten() - before, "the SETTINGS");
  }
}
