package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The server-wide count of unread responses, connection by connection: who is refused past the limit,
 * when streams are held back, and what a large message made before its connection reached HTTP/2
 * counts for. The connections' event loops are the test's thread.
 */
class ServerBacklogTest {

  private static final long LIMIT = 100;

  private final ServerBacklog backlog = new ServerBacklog(LIMIT);

  /** A connection that records what the server asked of it. */
  private final class Recorded implements ServerBacklog.Connection {
    final List<String> refusals = new ArrayList<>();
    int decongested;
    final ServerBacklog.Share share;

    Recorded() {
      this(backlog);
    }

    Recorded(ServerBacklog backlog) {
      share = backlog.join(Runnable::run, this);
    }

    @Override
    public void refuse(String reason) {
      refusals.add(reason);
    }

    @Override
    public void decongested() {
      decongested++;
    }
  }

  @Test
  void pastTheLimitTheConnectionHoldingTheMostIsRefusedNotTheOneThatWrote() {
    Recorded a = new Recorded();
    Recorded b = new Recorded();
    Recorded c = new Recorded();
    a.share.publish(30);
    b.share.publish(50);
    c.share.publish(10);
    assertEquals(90, backlog.bytes());
    assertTrue(a.refusals.isEmpty() && b.refusals.isEmpty() && c.refusals.isEmpty());

    c.share.publish(40);
    assertEquals(120, backlog.bytes());
    assertEquals(1, b.refusals.size());
    assertTrue(b.refusals.get(0).contains("50 of the server's 120 bytes"), b.refusals.get(0));
    assertTrue(a.refusals.isEmpty() && c.refusals.isEmpty(), "the others hold 70, within the limit");

    b.share.leave();
    assertEquals(70, backlog.bytes());
  }

  @Test
  void aRefusedConnectionCountsAsGoneSoTheSameExcessRefusesNoOtherButMoreDoes() {
    Recorded a = new Recorded();
    Recorded b = new Recorded();
    Recorded c = new Recorded();
    a.share.publish(40);
    b.share.publish(35);
    c.share.publish(30);
    assertEquals(List.of(), b.refusals);
    assertEquals(1, a.refusals.size(), "105 > 100: the heaviest goes");

    c.share.publish(31);
    assertTrue(b.refusals.isEmpty() && c.refusals.isEmpty(), "what is left without the refused one: 66");

    c.share.publish(70);
    assertEquals(1, c.refusals.size(), "without the refused one, 105 again: now the heaviest of the rest");
    assertTrue(b.refusals.isEmpty());
    assertEquals(1, a.refusals.size(), "refused once only");
  }

  @Test
  void aLargeMessageCountsWhenMadeAndMovesToWhatItsConnectionPublishes() {
    Recorded a = new Recorded();
    assertTrue(a.share.reserve(40));
    assertEquals(40, backlog.bytes());
    a.share.handedOn(40);
    a.share.publish(40);
    assertEquals(40, backlog.bytes(), "counted once");
    assertTrue(a.share.reserve(40));
    a.share.unreserve(40);
    assertEquals(40, backlog.bytes(), "dropped before HTTP/2");
    a.share.publish(0);
    assertEquals(0, backlog.bytes(), "the client read it");
  }

  @Test
  void aRefusedOrGoneConnectionsMessagesAreNotCountedAndItsLeavingTakesOutWhatItHeld() {
    Recorded a = new Recorded();
    Recorded b = new Recorded();
    a.share.publish(60);
    assertTrue(b.share.reserve(50));
    assertEquals(1, a.refusals.size());
    assertFalse(a.share.reserve(40), "refused: its new messages are dropped, not counted");
    assertEquals(110, backlog.bytes());

    a.share.leave();
    assertEquals(50, backlog.bytes());
    b.share.leave();
    assertEquals(0, backlog.bytes(), "what b reserved left with it");
    assertFalse(b.share.reserve(40));
    b.share.unreserve(40);
    b.share.publish(10);
    assertEquals(0, backlog.bytes(), "nothing of a connection that left counts");
  }

  @Test
  void pastTheLimitAConnectionWithALargeMessageWaitingGetsNoOtherWhileOneThatReadsIsServed() {
    int kib = 1024;
    ServerBacklog server = new ServerBacklog(1024 * kib);
    Recorded a = new Recorded(server);
    Recorded b = new Recorded(server);
    Recorded reader = new Recorded(server);
    a.share.publish(600 * kib);
    b.share.publish(500 * kib);
    assertEquals(1, a.refusals.size());
    assertEquals(1100 * kib, server.bytes(), "a's responses are in memory until its event loop closes it");

    assertTrue(reader.share.reserve(64 * kib), "a client that reads is served");
    assertFalse(b.share.reserve(64 * kib), "b's client left 500 KiB untaken: no more while past the limit");
    assertFalse(reader.share.reserve(64 * kib), "one large message waiting at a time while past the limit");
    assertEquals(1164 * kib, server.bytes(), "what was not made is not counted");
    assertTrue(b.refusals.isEmpty() && reader.refusals.isEmpty(), "without a, both are within the limit");
    reader.share.handedOn(64 * kib);
    reader.share.publish(0);
    assertTrue(reader.share.reserve(64 * kib), "its client took the last one");

    a.share.leave();
    assertTrue(b.share.reserve(64 * kib), "within the limit again");
    assertEquals(628 * kib, server.bytes());
  }

  @Test
  void streamsAreHeldBackFromHalfTheLimitUntilAQuarterAndEveryConnectionHearsOfIt() {
    Recorded a = new Recorded();
    Recorded b = new Recorded();
    a.share.publish(49);
    assertFalse(backlog.congested());
    b.share.publish(1);
    assertTrue(backlog.congested(), "50 of 100");
    a.share.publish(30);
    assertTrue(backlog.congested(), "31: above a quarter");
    assertEquals(0, a.decongested + b.decongested);
    a.share.publish(24);
    assertFalse(backlog.congested());
    assertEquals(1, a.decongested);
    assertEquals(1, b.decongested);
  }

  @Test
  void withoutALimitNothingIsRefusedOrHeldBack() {
    ServerBacklog unlimited = new ServerBacklog(0);
    List<String> refusals = new ArrayList<>();
    ServerBacklog.Share share = unlimited.join(Runnable::run, new ServerBacklog.Connection() {
      @Override
      public void refuse(String reason) {
        refusals.add(reason);
      }

      @Override
      public void decongested() {}
    });
    share.publish(1L << 40);
    assertEquals(1L << 40, unlimited.bytes());
    assertFalse(unlimited.congested());
    assertTrue(refusals.isEmpty());
  }
}
