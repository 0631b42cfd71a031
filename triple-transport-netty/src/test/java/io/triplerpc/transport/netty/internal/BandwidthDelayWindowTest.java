package io.triplerpc.transport.netty.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BandwidthDelayWindowTest {

  private static final int MIB = 1 << 20;

  private final MockTicker ticker = Ticker.newMockTicker();
  private final BandwidthDelayWindow window = new BandwidthDelayWindow(ticker, MIB, 8 * MIB);

  /**
   * A measurement whose round trip takes {@code millis} and brings {@code bytes}, the read that starts
   * it included: the window it gives.
   */
  private int roundTrip(long bytes, long millis) {
    int first = (int) Math.min(16384, bytes);
    window.dataRead(first);
    assertTrue(window.startMeasurement(), "a measurement starts after DATA");
    for (long left = bytes - first; left > 0; left -= 16384) {
      window.dataRead((int) Math.min(16384, left));
    }
    ticker.advance(millis, TimeUnit.MILLISECONDS);
    return window.pingAnswered();
  }

  @Test
  void noMeasurementWithoutData() {
    assertFalse(window.startMeasurement());
    window.dataRead(1);
    assertTrue(window.startMeasurement());
  }

  @Test
  void oneMeasurementAtATime() {
    window.dataRead(1);
    assertTrue(window.startMeasurement());
    window.dataRead(1);
    assertFalse(window.startMeasurement(), "its PING is still unanswered");
  }

  @Test
  void growsToTwiceTheBytesOfARoundTrip() {
    assertEquals(3 * MIB, roundTrip(3 * MIB / 2, 10));
    assertEquals(3 * MIB, window.window());
  }

  @Test
  void theReadThatStartsAMeasurementCounts() {
    // Held back by its window, half of it read when the PING leaves with its WINDOW_UPDATE, and the
    // ACK back before the DATA that update released: the round trip alone brought half the window.
    window.dataRead(MIB / 2);
    assertTrue(window.startMeasurement());
    window.dataRead(MIB / 2);
    ticker.advance(40, TimeUnit.MILLISECONDS);
    assertEquals(2 * MIB, window.pingAnswered());
  }

  @Test
  void readsBeforeTheOneThatStartsAMeasurementAreNotCounted() {
    assertEquals(0, roundTrip(1000, 1));
    window.dataRead(4 * MIB);
    assertFalse(window.startMeasurement(), "paused");
    ticker.advance(BandwidthDelayWindow.PAUSE_NANOS, TimeUnit.NANOSECONDS);
    window.dataRead(MIB / 8);
    assertTrue(window.startMeasurement());
    window.dataRead(MIB / 8);
    ticker.advance(10, TimeUnit.MILLISECONDS);
    assertEquals(0, window.pingAnswered(), "a quarter of the window from the starting read and the round trip");
    assertEquals(MIB, window.window());
  }

  @Test
  void aReadWithoutDataStartsNothing() {
    window.dataRead(MIB);
    assertTrue(window.startMeasurement());
    ticker.advance(10, TimeUnit.MILLISECONDS);
    assertEquals(2 * MIB, window.pingAnswered());
    assertFalse(window.startMeasurement(), "the read after the ACK brought no DATA");
  }

  @Test
  void neverPastTheMaximum() {
    assertEquals(8 * MIB, roundTrip(20 * MIB, 10));
    window.dataRead(MIB);
    assertFalse(window.startMeasurement(), "at the maximum nothing is left to measure");
  }

  @Test
  void growsOnlyWhenTheBandwidthIsTheBestYet() {
    assertEquals(2 * MIB, roundTrip(MIB, 10));
    // More bytes, but over a round trip four times longer: less bandwidth, a slower path rather than a
    // wider one.
    assertEquals(0, roundTrip(3 * MIB / 2, 40));
    assertEquals(2 * MIB, window.window());
  }

  @Test
  void pausesAfterAMeasurementThatDidNotGrowTheWindow() {
    assertEquals(0, roundTrip(1000, 1));
    window.dataRead(100);
    assertFalse(window.startMeasurement());
    ticker.advance(BandwidthDelayWindow.PAUSE_NANOS - 1, TimeUnit.NANOSECONDS);
    window.dataRead(100);
    assertFalse(window.startMeasurement());
    ticker.advance(1, TimeUnit.NANOSECONDS);
    window.dataRead(100);
    assertTrue(window.startMeasurement());
  }

  @Test
  void measuresAgainAtOnceAfterGrowing() {
    assertEquals(2 * MIB, roundTrip(MIB, 10));
    window.dataRead(100);
    assertTrue(window.startMeasurement());
  }

  @Test
  void aStrayAckChangesNothing() {
    assertEquals(0, window.pingAnswered());
    assertEquals(MIB, window.window());
  }

  @Test
  void fixedWhenTheMaximumIsNotLarger() {
    BandwidthDelayWindow fixed = new BandwidthDelayWindow(ticker, MIB, MIB / 2);
    fixed.dataRead(MIB);
    assertFalse(fixed.startMeasurement());
    assertEquals(MIB, fixed.window());
  }
}
