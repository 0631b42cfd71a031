package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.internal.stream.TransportOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The HTTP/2 abuse limits of both builders: their defaults, their checks, and 0 as off. */
class AbuseLimitOptionsTest {

  @Test
  void serverDefaultsAreNettysBuilderDefaults() {
    TransportOptions options = TripleServer.builder().transportOptions();
    assertEquals(10_000, options.maxQueuedControlFrames());
    assertEquals(200, options.maxRstFramesPerWindow());
    assertEquals(30, options.rstFramesWindowSeconds());
    assertEquals(2, options.maxConsecutiveEmptyDataFrames());
    TransportOptions defaults = TransportOptions.defaults();
    assertEquals(defaults.maxQueuedControlFrames(), options.maxQueuedControlFrames());
    assertEquals(defaults.maxRstFramesPerWindow(), options.maxRstFramesPerWindow());
    assertEquals(defaults.maxConsecutiveEmptyDataFrames(), options.maxConsecutiveEmptyDataFrames());
  }

  @Test
  void clientDefaultsLeaveTheResetRateUnlimited() {
    TransportOptions options = TripleClient.builder().transportOptions();
    assertEquals(10_000, options.maxQueuedControlFrames());
    assertEquals(0, options.maxRstFramesPerWindow());
    assertEquals(2, options.maxConsecutiveEmptyDataFrames());
  }

  @Test
  void limitsAreSetAndZeroIsAccepted() {
    TransportOptions server = TripleServer.builder()
        .maxQueuedControlFrames(0)
        .maxRstFramesPerWindow(50, Duration.ofMinutes(1))
        .maxConsecutiveEmptyDataFrames(0)
        .transportOptions();
    assertEquals(0, server.maxQueuedControlFrames());
    assertEquals(50, server.maxRstFramesPerWindow());
    assertEquals(60, server.rstFramesWindowSeconds());
    assertEquals(0, server.maxConsecutiveEmptyDataFrames());
    TransportOptions client = TripleClient.builder().maxRstFramesPerWindow(500, Duration.ofSeconds(10)).transportOptions();
    assertEquals(500, client.maxRstFramesPerWindow());
    assertEquals(10, client.rstFramesWindowSeconds());
  }

  @Test
  void negativeLimitsAndWindowsThatAreNotWholeSecondsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> TripleServer.builder().maxQueuedControlFrames(-1));
    assertThrows(IllegalArgumentException.class, () -> TripleClient.builder().maxConsecutiveEmptyDataFrames(-1));
    assertThrows(IllegalArgumentException.class,
        () -> TripleServer.builder().maxRstFramesPerWindow(-1, Duration.ofSeconds(30)));
    assertThrows(IllegalArgumentException.class,
        () -> TripleServer.builder().maxRstFramesPerWindow(200, Duration.ofMillis(1500)));
    assertThrows(IllegalArgumentException.class, () -> TripleClient.builder().maxRstFramesPerWindow(200, Duration.ZERO));
    assertThrows(NullPointerException.class, () -> TripleServer.builder().maxRstFramesPerWindow(200, null));
  }
}
