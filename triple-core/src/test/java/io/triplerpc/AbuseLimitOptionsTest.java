package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.internal.client.TripleClientBuilder;
import io.triplerpc.internal.server.TripleServerBuilder;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.Http2Limits;
import io.triplerpc.internal.stream.ServerTransportOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The HTTP/2 abuse limits of both builders: their defaults, their checks, and 0 as off. */
class AbuseLimitOptionsTest {

  @Test
  void serverDefaultsAreNettysBuilderDefaults() {
    Http2Limits options = server().transportOptions().limits();
    assertEquals(10_000, options.maxQueuedControlFrames());
    assertEquals(200, options.maxRstFramesPerWindow());
    assertEquals(30, options.rstFramesWindowSeconds());
    assertEquals(2, options.maxConsecutiveEmptyDataFrames());
    assertEquals(ServerTransportOptions.DEFAULTS, server().transportOptions());
  }

  @Test
  void clientDefaultsLeaveTheResetRateUnlimited() {
    Http2Limits options = client().transportOptions().limits();
    assertEquals(10_000, options.maxQueuedControlFrames());
    assertEquals(0, options.maxRstFramesPerWindow());
    assertEquals(2, options.maxConsecutiveEmptyDataFrames());
    assertEquals(ClientTransportOptions.DEFAULTS, client().transportOptions());
  }

  /** The builder {@link TripleServer#builder()} finds, with the options it resolves. */
  private static TripleServerBuilder server() {
    return (TripleServerBuilder) TripleServer.builder();
  }

  private static TripleClientBuilder client() {
    return (TripleClientBuilder) TripleClient.builder();
  }

  @Test
  void limitsAreSetAndZeroIsAccepted() {
    TripleServerBuilder serverBuilder = server();
    serverBuilder.maxQueuedControlFrames(0).maxRstFramesPerWindow(50, Duration.ofMinutes(1))
        .maxConsecutiveEmptyDataFrames(0);
    Http2Limits server = serverBuilder.transportOptions().limits();
    assertEquals(0, server.maxQueuedControlFrames());
    assertEquals(50, server.maxRstFramesPerWindow());
    assertEquals(60, server.rstFramesWindowSeconds());
    assertEquals(0, server.maxConsecutiveEmptyDataFrames());
    assertEquals(256L << 20, serverBuilder.transportOptions().maxTotalPendingOutboundBytes());
    assertEquals(0, serverBuilder.maxTotalPendingOutboundBytes(0).transportOptions().maxTotalPendingOutboundBytes());
    TripleClientBuilder clientBuilder = client();
    clientBuilder.maxRstFramesPerWindow(500, Duration.ofSeconds(10));
    Http2Limits client = clientBuilder.transportOptions().limits();
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
    assertThrows(IllegalArgumentException.class, () -> TripleServer.builder().maxTotalPendingOutboundBytes(-1));
  }
}
