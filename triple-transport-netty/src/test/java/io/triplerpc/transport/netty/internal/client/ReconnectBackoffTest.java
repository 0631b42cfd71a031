package io.triplerpc.transport.netty.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.ClientProtocol;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.testing.ManualClock;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reconnect backoff of a {@link ConnectionSlot} on a {@link ManualClock}: after each failed
 * attempt the next waits 1.6 times longer (±20% jitter) up to the maximum, calls meanwhile fail fast
 * with UNAVAILABLE, and a connection that comes up starts the backoff over. An attempt fails at once
 * here because the clock's event loop runs no I/O, as a refused connection would fail it.
 */
class ReconnectBackoffTest {

  private final ManualClock clock = new ManualClock();
  /** Changes of the slot's connections reported so far. */
  private final AtomicInteger changes = new AtomicInteger();
  private final ConnectionSlot slot = new ConnectionSlot(new Dialer(new InetSocketAddress("127.0.0.1", 1),
      new ClientTransportOptions(ClientTransportOptions.DEFAULTS.limits(), ClientTransportOptions.DEFAULTS.keepAlive(),
          1, 10_000, 1_000, 5_000, 0, null, ClientProtocol.GRPC),
      ByteBufAllocator.DEFAULT, null, new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), HostResolver.SYSTEM),
      clock.eventLoop(), new KeepAliveTime(KeepAlive.OFF), changes::incrementAndGet);

  @AfterEach
  void close() {
    slot.shutdown();
    clock.close();
  }

  /** An attempt, failing at once; returns its connection. */
  private ClientConnection failedAttempt() {
    ClientConnection connection = slot.connection();
    clock.runPending();
    assertFalse(connection.isUsable(), "the attempt failed");
    return connection;
  }

  private void assertRefused() {
    StatusException refused = assertThrows(StatusException.class, slot::connection);
    assertEquals(Status.Code.UNAVAILABLE, refused.status().code());
    assertTrue(refused.status().description().contains("Next connection attempt in"), refused.status().description());
  }

  /** Waits out a backoff of {@code millis} before jitter: refused until 80% of it, allowed by 120%. */
  private void waitOut(long millis) {
    clock.advance(Duration.ofMillis(millis * 8 / 10 - 2));
    assertRefused();
    clock.advance(Duration.ofMillis(millis * 4 / 10 + 2));
  }

  @Test
  void eachFailedAttemptWaitsLongerUpToTheMaximum() {
    ClientConnection first = failedAttempt();
    assertRefused();
    for (long backoff : new long[] {1_000, 1_600, 2_560, 4_096, 5_000, 5_000}) {
      waitOut(backoff);
      assertNotSame(first, failedAttempt(), "a new attempt once the backoff has passed");
    }
  }

  @Test
  void aFailedAttemptAndTheEndOfItsBackoffAreChangesOfTheConnections() {
    failedAttempt();
    int afterFailure = changes.get();
    assertTrue(afterFailure >= 1, "the failed attempt is a change");
    clock.advance(Duration.ofMillis(1_000 * 8 / 10 - 2));
    assertEquals(afterFailure, changes.get(), "none while the backoff runs");
    clock.advance(Duration.ofMillis(1_000 * 4 / 10 + 2));
    assertEquals(afterFailure + 1, changes.get(), "its end is one: a call may connect again");
    failedAttempt();
  }

  @Test
  void aConnectionThatCameUpStartsTheBackoffOver() {
    failedAttempt();
    waitOut(1_000);
    ClientConnection second = failedAttempt();
    waitOut(1_600);
    slot.connected(second);
    failedAttempt();
    waitOut(1_000);
    failedAttempt();
  }
}
