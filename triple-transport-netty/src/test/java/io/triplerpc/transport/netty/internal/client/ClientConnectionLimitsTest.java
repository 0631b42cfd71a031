package io.triplerpc.transport.netty.internal.client;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.PING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Client keepalive, and the bound on requests a server does not read, on a mock clock: the connection
 * runs in an {@link EmbeddedClientConnection} whose event loop keeps time only as the test advances it,
 * and the test plays the server.
 */
class ClientConnectionLimitsTest {

  private static final long OFF = KeepAlive.OFF;
  private static final long ENHANCE_YOUR_CALM = 0xb;

  private EmbeddedClientConnection embedded;
  private EmbeddedHttp2Peer server;
  private ClientConnection connection;
  private KeepAliveTime keepAliveTime;
  private volatile Status closed;
  private long maxPendingOutboundBytes = ClientTransportOptions.DEFAULTS.limits().maxPendingOutboundBytes();

  @AfterEach
  void close() {
    if (embedded != null) {
      embedded.close();
    }
  }

  private static long s(long seconds) {
    return TimeUnit.SECONDS.toNanos(seconds);
  }

  private void connect(long time, long timeout, boolean withoutCalls) throws Exception {
    ClientTransportOptions options = ClientTransportOptions.DEFAULTS
        .withKeepAlive(new KeepAlive(time, timeout, withoutCalls))
        .withLimits(ClientTransportOptions.DEFAULTS.limits().withMaxPendingOutboundBytes(maxPendingOutboundBytes));
    keepAliveTime = keepAliveTime != null ? keepAliveTime : new KeepAliveTime(time);
    embedded = new EmbeddedClientConnection(options, keepAliveTime);
    server = embedded.server;
    connection = embedded.connection;
  }

  /** Starts a call, as core would, and sends its headers. */
  private NettyClientStream startCall() {
    return startCall(status -> closed = status);
  }

  private NettyClientStream startCall(java.util.function.Consumer<Status> onClose) {
    return embedded.startCall("/svc/Method", new ClientStreamListener() {
      @Override
      public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {
      }

      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        payload.release();
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        onClose.accept(status);
      }

      @Override
      public void onReady() {
      }
    });
  }

  private void advance(long seconds) {
    server.advance(Duration.ofSeconds(seconds));
  }

  @Test
  void pingsAfterSilenceAndFailsTheCallsWhenNoAnswerComes() throws Exception {
    connect(s(10), s(2), false);
    startCall();
    advance(9);
    assertTrue(server.frames(PING).isEmpty());
    advance(1);
    assertEquals(1, server.frames(PING).size());
    advance(1);
    assertTrue(server.channel().isActive());
    assertNull(closed);
    advance(1);
    assertFalse(server.channel().isActive(), "no answer in 2 s: the connection is taken for dead");
    assertEquals(Status.Code.UNAVAILABLE, closed.code());
    assertTrue(closed.description().startsWith("Keepalive failed"), closed.description());
    assertFalse(connection.isUsable(), "the next call opens a new connection");
  }

  @Test
  void anAnswerKeepsTheConnection() throws Exception {
    connect(s(10), s(2), false);
    startCall();
    for (int i = 0; i < 5; i++) {
      advance(10);
      List<Frame> pings = server.frames(PING);
      assertEquals(1, pings.size(), "one PING per 10 s of silence");
      advance(1);
      server.sendPingAck(pings.get(0).pingData());
    }
    advance(1);
    assertTrue(server.channel().isActive());
    assertNull(closed);
  }

  @Test
  void theAnswerSetsTheNextPingEvenWhenTheTimeoutIsLongerThanTheTime() throws Exception {
    connect(s(1), s(20), false);
    startCall();
    for (int i = 0; i < 5; i++) {
      advance(1);
      List<Frame> pings = server.frames(PING);
      assertEquals(1, pings.size(), "one PING per second of silence, not one per timeout");
      server.sendPingAck(pings.get(0).pingData());
    }
  }

  @Test
  void aConnectionWithoutCallsIsNotPingedUnlessAsked() throws Exception {
    connect(s(10), s(2), false);
    advance(3600);
    assertTrue(server.frames(PING).isEmpty(), "no calls: no pings");
    startCall();
    assertEquals(1, server.frames(PING).size(), "the first call after a long silence pings at once");
    server.close();

    connect(s(10), s(2), true);
    advance(10);
    assertEquals(1, server.frames(PING).size(), "keepAliveWithoutCalls");
  }

  @Test
  void tooManyPingsDoublesTheKeepaliveTimeOfNewConnectionsOnce() throws Exception {
    connect(s(10), s(20), true);
    server.sendGoAway(0, ENHANCE_YOUR_CALM, "too_many_pings");
    assertEquals(s(20), keepAliveTime.nanos());
    server.close();

    connect(s(10), s(20), true);
    advance(19);
    assertTrue(server.frames(PING).isEmpty(), "the new connection pings every 20 s");
    advance(1);
    assertEquals(1, server.frames(PING).size());
  }

  @Test
  void connectionsRefusedTogetherDoubleTheTimeOnce() {
    KeepAliveTime time = new KeepAliveTime(s(10));
    time.tooManyPings(s(10));
    time.tooManyPings(s(10));
    assertEquals(s(20), time.nanos());
    time.tooManyPings(s(20));
    assertEquals(s(40), time.nanos());
  }

  @Test
  void anotherEnhanceYourCalmLeavesTheTimeAlone() throws Exception {
    connect(s(10), s(20), true);
    server.sendGoAway(0, ENHANCE_YOUR_CALM, "too many resets");
    assertEquals(s(10), keepAliveTime.nanos());
  }

  private static final int REQUEST_BYTES = 300 * 1024;

  private void send(NettyClientStream stream) {
    ByteBuf message = ByteBufAllocator.DEFAULT.buffer(REQUEST_BYTES);
    message.writeZero(REQUEST_BYTES);
    stream.writeMessage(message, false);
    server.runPendingTasks();
  }

  @Test
  void requestsAServerDoesNotReadFailTheCallThenTheConnection() throws Exception {
    maxPendingOutboundBytes = 1 << 20;
    connect(OFF, s(20), false);
    List<Status> closes = new java.util.concurrent.CopyOnWriteArrayList<>(new Status[3]);
    NettyClientStream first = startCall(status -> closes.set(0, status));
    for (int i = 0; i < 3; i++) {
      send(first);
    }
    assertTrue(server.frames(EmbeddedHttp2Peer.RST_STREAM).isEmpty(), "900 KiB less the 64 KiB window: under 1 MiB");

    NettyClientStream second = startCall(status -> closes.set(1, status));
    send(second);
    List<Frame> resets = server.frames(EmbeddedHttp2Peer.RST_STREAM);
    assertEquals(1, resets.size());
    assertEquals(second.id(), resets.get(0).streamId(), "the call that passed the limit");
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, closes.get(1).code(), String.valueOf(closes.get(1)));
    assertNull(closes.get(0));

    NettyClientStream third = startCall(status -> closes.set(2, status));
    send(third);
    List<Frame> goAways = server.frames(EmbeddedHttp2Peer.GOAWAY);
    assertEquals(1, goAways.size(), "reset once, and still the server reads nothing");
    assertEquals(ENHANCE_YOUR_CALM, goAways.get(0).errorCode());
    assertFalse(server.channel().isActive());
    assertEquals(Status.Code.UNAVAILABLE, closes.get(0).code());
    assertTrue(closes.get(0).description().startsWith("The server does not read"), closes.get(0).description());
    assertFalse(connection.isUsable(), "the next call opens a new connection");
  }
}
