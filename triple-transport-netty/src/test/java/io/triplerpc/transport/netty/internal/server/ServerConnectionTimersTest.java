package io.triplerpc.transport.netty.internal.server;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.GOAWAY;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.PING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.internal.stream.ServerConnectionTimers;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Keepalive, the permitted ping rate, idle and age limits and the handshake timeout of a server
 * connection, on a mock clock: the connection runs in an {@link EmbeddedChannel} whose event loop
 * keeps time only as the test advances it.
 */
class ServerConnectionTimersTest {

  private static final long OFF = KeepAlive.OFF;
  private static final long ENHANCE_YOUR_CALM = 0xb;

  /** Streams the server saw, and how each ended (null while open). */
  private final List<ServerStream> streams = new ArrayList<>();
  private final List<Status> cancels = new ArrayList<>();
  private final ServerTransportListener listener = (stream, request) -> {
    streams.add(stream);
    int index = cancels.size();
    cancels.add(null);
    return new DiscardingStreamListener(status -> cancels.set(index, status));
  };

  private final MockTicker ticker = Ticker.newMockTicker();
  private NettyServerTransport transport;
  private EmbeddedHttp2Peer client;

  @BeforeEach
  void bind() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  /** The server's options with these timers, and no HTTP/1.1 read timeouts. */
  private static ServerTransportOptions timers(
      long keepAlive, long keepAliveTimeout, long permit, boolean permitWithoutCalls,
      long maxIdle, long maxAge, long grace, long handshake) {
    return ServerTransportOptions.DEFAULTS.withTimers(new KeepAlive(keepAlive, keepAliveTimeout, true),
        new ServerConnectionTimers(permit, permitWithoutCalls, maxIdle, maxAge, grace, handshake, OFF, OFF));
  }

  private static long s(long seconds) {
    return TimeUnit.SECONDS.toNanos(seconds);
  }

  /** A connection with {@code timers}, its client preface and SETTINGS sent, the server's frames read. */
  private EmbeddedHttp2Peer connect(ServerTransportOptions options) {
    client = EmbeddedServerConnection.open(transport, listener, options, ticker);
    return client;
  }

  private void advance(long seconds) {
    client.advance(Duration.ofSeconds(seconds));
  }

  @Test
  void pingsASilentClientAndClosesTheConnectionWhenNoAnswerComes() {
    connect(timers(s(10), s(2), s(300), false, OFF, OFF, OFF, OFF));
    advance(9);
    assertTrue(client.frames(PING).isEmpty(), "no PING before 10 s of silence");
    advance(1);
    List<Frame> pings = client.frames(PING);
    assertEquals(1, pings.size());
    assertFalse(pings.get(0).has(EmbeddedHttp2Peer.FLAG_ACK));
    advance(1);
    assertTrue(client.channel().isActive(), "the PING may go unanswered for 2 s");
    advance(1);
    assertFalse(client.channel().isActive(), "2 s without an answer: closed");
  }

  @Test
  void callsOfAConnectionFoundDeadAreCancelled() {
    connect(timers(s(10), s(2), s(300), false, OFF, OFF, OFF, OFF));
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    assertEquals(1, streams.size());
    advance(10);
    advance(2);
    assertFalse(client.channel().isActive());
    assertEquals(Status.Code.UNAVAILABLE, cancels.get(0).code());
    assertTrue(cancels.get(0).description().contains("Keepalive failed"), cancels.get(0).description());
  }

  @Test
  void anyFrameFromTheClientAnswersTheKeepalivePing() {
    connect(timers(s(10), s(2), s(300), false, OFF, OFF, OFF, OFF));
    advance(10);
    Frame ping = client.frames(PING).get(0);
    advance(1);
    client.sendPingAck(ping.pingData());
    advance(1);
    assertTrue(client.channel().isActive());
    advance(8);
    assertTrue(client.frames(PING).isEmpty(), "silence counts from the answer");
    advance(1);
    assertEquals(1, client.frames(PING).size(), "10 s after the answer, the next PING");
    client.sendSettings();
    advance(2);
    assertTrue(client.channel().isActive(), "a SETTINGS frame is a sign of life too");
  }

  @Test
  void aClientThatPingsTooOftenGetsGoAwayTooManyPingsOnItsThirdStrike() {
    connect(timers(OFF, s(20), s(60), false, OFF, OFF, OFF, OFF));
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    for (int strike = 1; strike <= KeepAliveEnforcer.MAX_PING_STRIKES; strike++) {
      advance(10);
      client.sendPing(strike);
      List<Frame> frames = client.frames();
      assertTrue(frames.stream().anyMatch(f -> f.type() == PING && f.has(EmbeddedHttp2Peer.FLAG_ACK)),
          "strike " + strike + " is still answered: " + frames);
      assertTrue(frames.stream().noneMatch(f -> f.type() == GOAWAY), frames::toString);
    }
    advance(10);
    client.sendPing(3);
    List<Frame> goAways = client.frames(GOAWAY);
    assertEquals(1, goAways.size());
    assertEquals(ENHANCE_YOUR_CALM, goAways.get(0).errorCode());
    assertEquals("too_many_pings", goAways.get(0).debugData());
    assertEquals(1, goAways.get(0).lastStreamId(), "names the last stream the server processed");
    assertFalse(client.channel().isActive());
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, cancels.get(0).code());
  }

  @Test
  void pingsAtThePermittedRateAreFineForever() {
    connect(timers(OFF, s(20), s(60), false, OFF, OFF, OFF, OFF));
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    for (int i = 0; i < 10; i++) {
      advance(60);
      client.sendPing(i);
    }
    assertTrue(client.frames(GOAWAY).isEmpty());
    assertTrue(client.channel().isActive());
  }

  @Test
  void withoutCallsAClientMayPingOnlyOncePerTwoHoursUnlessPermitted() {
    connect(timers(OFF, s(20), s(60), false, OFF, OFF, OFF, OFF));
    for (int i = 0; i < 3; i++) {
      advance(60);
      client.sendPing(i);
    }
    assertEquals(1, client.frames(GOAWAY).size(), "three pings a minute apart without calls");

    client.close();
    connect(timers(OFF, s(20), s(60), true, OFF, OFF, OFF, OFF));
    for (int i = 0; i < 10; i++) {
      advance(60);
      client.sendPing(i);
    }
    assertTrue(client.frames(GOAWAY).isEmpty(), "permitted without calls");
  }

  @Test
  void pingsAfterTheServerSendsHeadersAreForgiven() {
    connect(timers(OFF, s(20), s(60), false, OFF, OFF, OFF, OFF));
    for (int i = 1; i <= 5; i++) {
      client.sendGrpcRequestHeaders(2 * i - 1, "/svc/Method");
      streams.get(i - 1).writeHeaders(new Metadata(), null, true);
      client.runPendingTasks();
      // grpc-java's clients send a BDP ping as they receive data, seconds apart or less.
      client.sendPing(i);
      advance(1);
    }
    assertTrue(client.frames(GOAWAY).isEmpty());
    assertTrue(client.channel().isActive());
  }

  @Test
  void pingsAfterFlowControlledDataGoesOutAreForgiven() {
    connect(timers(OFF, s(20), s(60), false, OFF, OFF, OFF, OFF));
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    // A response far larger than the client's 64 KiB window: the flow controller sends it piece by
    // piece, each time the client opens its window, long after the call queued it.
    int size = 6 * 65_535;
    ByteBuf framed = Unpooled.buffer(5 + size).writeByte(0).writeInt(size).writeZero(size);
    streams.get(0).writeHeaders(new Metadata(), null, false);
    streams.get(0).writeMessage(framed, true);
    client.runPendingTasks();
    client.frames();
    for (int i = 1; i <= 5; i++) {
      advance(1);
      // grpc-go's clients open the window and send a BDP ping as the data arrives.
      sendWindowUpdate(0, 65_535);
      sendWindowUpdate(1, 65_535);
      client.sendPing(i);
      List<Frame> frames = client.frames();
      assertTrue(frames.stream().anyMatch(f -> f.type() == EmbeddedHttp2Peer.DATA), "more data: " + frames);
      assertTrue(frames.stream().noneMatch(f -> f.type() == GOAWAY), "ping " + i + ": " + frames);
    }
    assertTrue(client.channel().isActive());
  }

  private void sendWindowUpdate(int streamId, int increment) {
    client.sendFrame(0x8, 0, streamId, new byte[] {
        (byte) (increment >>> 24), (byte) (increment >>> 16), (byte) (increment >>> 8), (byte) increment});
  }

  @Test
  void anIdleConnectionIsClosedGracefullyAfterMaxConnectionIdle() {
    connect(timers(OFF, s(20), s(300), false, s(30), OFF, OFF, OFF));
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    advance(60);
    assertTrue(client.frames(GOAWAY).isEmpty(), "a call in flight: not idle");
    client.sendRstStream(1, 0x8);
    advance(29);
    assertTrue(client.frames(GOAWAY).isEmpty(), "idle for 29 s only");
    advance(1);
    List<Frame> frames = client.frames();
    Frame goAway = frames.stream().filter(f -> f.type() == GOAWAY).findFirst().orElseThrow();
    assertEquals(0, goAway.errorCode());
    assertEquals("max_idle", goAway.debugData());
    Frame ping = frames.stream().filter(f -> f.type() == PING).findFirst().orElseThrow();
    client.sendPingAck(ping.pingData());
    Frame second = client.frames(GOAWAY).get(0);
    assertEquals(1, second.lastStreamId());
    assertFalse(client.channel().isActive(), "no calls: closed after the second GOAWAY");
  }

  @Test
  void anOldConnectionGoesAwayAndItsCallsGetTheGrace() {
    connect(timers(OFF, s(20), s(300), false, OFF, s(100), s(30), OFF));
    client.sendGrpcRequestHeaders(1, "/svc/Method");
    advance(89);
    assertTrue(client.frames(GOAWAY).isEmpty(), "younger than 100 s less 10%");
    List<Frame> goAways = List.of();
    int age = 89;
    while (goAways.isEmpty() && age < 111) {
      advance(1);
      age++;
      goAways = client.frames(GOAWAY);
    }
    assertTrue(age <= 110, "older than 100 s and 10%: " + age);
    assertEquals("max_age", goAways.get(0).debugData());
    assertTrue(client.channel().isActive(), "the call in flight goes on");
    assertNull(cancels.get(0));
    advance(29);
    assertTrue(client.channel().isActive());
    advance(1);
    assertFalse(client.channel().isActive(), "the grace is over");
    assertEquals(Status.Code.UNAVAILABLE, cancels.get(0).code());
  }

  @Test
  void aConnectionThatSendsNothingIsClosedAfterTheHandshakeTimeout() {
    EmbeddedChannel channel = EmbeddedChannel.builder().ticker(ticker).build();
    transport.initConnection(channel, listener, timers(OFF, s(20), s(300), false, OFF, OFF, OFF, s(120)));
    client = new EmbeddedHttp2Peer(channel, ticker, false);
    client.advance(Duration.ofSeconds(119));
    assertTrue(channel.isActive());
    client.advance(Duration.ofSeconds(1));
    assertFalse(channel.isActive());
  }

  @Test
  void aConnectionThatSentItsPrefaceHasNoHandshakeTimeout() {
    connect(timers(OFF, s(20), s(300), false, OFF, OFF, OFF, s(120)));
    advance(3600);
    assertTrue(client.channel().isActive());
  }

  @Test
  void aHalfSentHttp2PrefaceIsAHandshakeThatNeverEnds() {
    EmbeddedChannel channel = EmbeddedChannel.builder().ticker(ticker).build();
    transport.initConnection(channel, listener, timers(OFF, s(20), s(300), false, OFF, OFF, OFF, s(10)));
    client = new EmbeddedHttp2Peer(channel, ticker, false);
    client.write(Unpooled.copiedBuffer("PRI * HTTP/2.0\r\n", StandardCharsets.US_ASCII));
    client.advance(Duration.ofSeconds(10));
    assertFalse(channel.isActive());
  }

  /** An HTTP/1.1 connection with the given read timeouts (and a 20 s handshake timeout). */
  private EmbeddedChannel http1(long headerTimeout, long bodyIdleTimeout) {
    EmbeddedChannel channel = EmbeddedChannel.builder().ticker(ticker).build();
    transport.initConnection(channel, listener, ServerTransportOptions.DEFAULTS.withTimers(
        new KeepAlive(OFF, s(20), true),
        new ServerConnectionTimers(s(300), false, OFF, OFF, OFF, s(20), headerTimeout, bodyIdleTimeout)));
    client = new EmbeddedHttp2Peer(channel, ticker, false);
    return channel;
  }

  private static String written(EmbeddedChannel channel) {
    StringBuilder out = new StringBuilder();
    ByteBuf buf;
    while ((buf = channel.readOutbound()) != null) {
      out.append(buf.toString(StandardCharsets.UTF_8));
      buf.release();
    }
    return out.toString();
  }

  @Test
  void http1HeadersTrickledTooSlowlyGet408() {
    EmbeddedChannel channel = http1(s(10), s(5));
    client.write(Unpooled.copiedBuffer("POST /svc/Method HTTP/1.1\r\nHost: x\r\nCont", StandardCharsets.US_ASCII));
    client.advance(Duration.ofSeconds(5));
    client.write(Unpooled.copiedBuffer("ent-Typ", StandardCharsets.US_ASCII));
    client.advance(Duration.ofSeconds(4));
    assertTrue(channel.isActive(), "bytes keep coming, but the headers' time counts from the first");
    client.advance(Duration.ofSeconds(1));
    String response = written(channel);
    assertTrue(response.startsWith("HTTP/1.1 408"), response);
    assertTrue(response.contains("Request line and headers not received within 10000 ms"), response);
    assertFalse(channel.isActive());
  }

  @Test
  void http1BodyThatStallsGets408() {
    EmbeddedChannel channel = http1(s(10), s(5));
    client.write(Unpooled.copiedBuffer("POST /svc/Method HTTP/1.1\r\nHost: x\r\n"
        + "Content-Type: application/json\r\nContent-Length: 10\r\n\r\n12345", StandardCharsets.US_ASCII));
    for (int i = 0; i < 4; i++) {
      client.advance(Duration.ofSeconds(4));
      client.write(Unpooled.copiedBuffer("6", StandardCharsets.US_ASCII));
    }
    assertTrue(channel.isActive(), "a byte every 4 s keeps the body alive");
    client.advance(Duration.ofSeconds(5));
    String response = written(channel);
    assertTrue(response.startsWith("HTTP/1.1 408"), response);
    assertTrue(response.contains("Request body received nothing for 5000 ms"), response);
    assertFalse(channel.isActive());
    assertEquals(1, streams.size(), "the call opened with the headers");
    assertEquals(Status.Code.CANCELLED, cancels.get(0).code(), "and ended with the connection, its body never whole");
  }

  @Test
  void http1ConnectionWaitingForItsNextRequestOrAResponseHasNoReadTimeout() {
    EmbeddedChannel channel = http1(s(10), s(5));
    client.write(Unpooled.copiedBuffer("POST /svc/Method HTTP/1.1\r\nHost: x\r\n"
        + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", StandardCharsets.US_ASCII));
    assertEquals(1, streams.size(), "the call started");
    client.advance(Duration.ofSeconds(3600));
    assertTrue(channel.isActive(), "a call in flight, and the handshake was its headers");
  }
}
