package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The premature-reset rule on a mock ticker: which resets count, and when the connection goes. */
class PrematureResetsTest {

  private final MockTicker ticker = Ticker.newMockTicker();
  private final PrematureResets resets = new PrematureResets(ticker);

  @Test
  void resetsASecondOrMoreAfterTheStreamOpenedNeverCount() {
    for (int i = 0; i < 2000; i++) {
      int stream = 1 + 2 * i;
      resets.opened(stream);
      ticker.advance(1, TimeUnit.SECONDS);
      assertFalse(resets.reset(stream), "a call cancelled at its 1 s deadline");
    }
    assertEquals(0, resets.premature());
  }

  @Test
  void theFiveHundredthResetAtOnceBeforeFiveHundredStreamsEndsTheConnection() {
    for (int i = 0; i < 499; i++) {
      resets.opened(1 + 2 * i);
      assertFalse(resets.reset(1 + 2 * i));
    }
    resets.opened(999);
    assertTrue(resets.reset(999));
  }

  @Test
  void halfTheStreamsResetAtOnceIsTolerableAndOneMoreIsNot() {
    int stream = 1;
    for (int i = 0; i < 1000; i++) {
      resets.opened(stream);
      resets.opened(stream + 2);
      ticker.advance(999, TimeUnit.MILLISECONDS);
      assertFalse(resets.reset(stream + 2), "just under a second: premature, but half the streams");
      stream += 4;
    }
    assertEquals(1000, resets.premature());
    resets.opened(stream);
    assertTrue(resets.reset(stream), "1,001 of 2,001 streams");
  }

  @Test
  void aResetFromNinetyPercentOfTheAnnouncedDeadlineOnIsNotPremature() {
    for (int i = 0; i < 1000; i++) {
      int stream = 1 + 2 * i;
      resets.opened(stream);
      resets.announcedTimeout(stream, TimeUnit.MILLISECONDS.toNanos(100));
      ticker.advance(90, TimeUnit.MILLISECONDS);
      assertFalse(resets.reset(stream), "a call cancelled at its 100 ms deadline, as the caller counts it");
    }
    assertEquals(0, resets.premature());
    resets.opened(2001);
    resets.announcedTimeout(2001, TimeUnit.MILLISECONDS.toNanos(100));
    ticker.advance(89, TimeUnit.MILLISECONDS);
    assertFalse(resets.reset(2001));
    assertEquals(1, resets.premature(), "before 90% of its deadline, it counts");
    resets.opened(2003);
    resets.announcedTimeout(2003, TimeUnit.SECONDS.toNanos(30));
    ticker.advance(999, TimeUnit.MILLISECONDS);
    resets.reset(2003);
    assertEquals(2, resets.premature(), "a long deadline does not stretch the second");
  }

  @Test
  void aStreamResetAfterTheRingWrappedCountsAsLate() {
    resets.opened(1);
    for (int i = 1; i <= 1024; i++) {
      resets.opened(1 + 2 * i);
    }
    assertFalse(resets.reset(1), "1,024 younger streams opened since: its open time is gone");
    assertEquals(0, resets.premature());
    assertFalse(resets.reset(3 + 2 * 1024), "never opened: not counted");
  }

  /** Streams opened in one read take the time of its first; outside a read each reads the clock. */
  @Test
  void streamsOpenedInOneReadAreAsOldAsItsFirst() {
    resets.readStarted();
    resets.opened(1);
    ticker.advance(500, TimeUnit.MILLISECONDS);
    resets.opened(3);
    resets.readEnded();
    ticker.advance(600, TimeUnit.MILLISECONDS);
    resets.reset(3);
    assertEquals(0, resets.premature(), "opened with the read's first stream, 1.1 s ago");

    resets.opened(5);
    ticker.advance(500, TimeUnit.MILLISECONDS);
    resets.opened(7);
    ticker.advance(600, TimeUnit.MILLISECONDS);
    resets.reset(7);
    assertEquals(1, resets.premature(), "opened on its own, 0.6 s ago");
  }
}
