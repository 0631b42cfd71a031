package io.triplerpc.transport.netty.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.RetryPolicy;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A retry policy over real sockets: a service that fails its first calls with UNAVAILABLE is reached on
 * a later attempt, each attempt after the first naming how many came before it
 * ({@code grpc-previous-rpc-attempts}); a server's negative pushback stops the retries; methods without a
 * policy are not retried. (The backoff is real here but short; its timing is tested on a controllable
 * clock in RetryingCallsTest.)
 */
class RetryPolicyTest {

  @TripleService(name = "triple.test.Flaky")
  public interface Flaky {
    /** Fails with UNAVAILABLE until called {@code failures + 1} times, then answers how many calls it took. */
    int call(int failures, long pushbackMillis);
  }

  @TripleService(name = "triple.test.Other")
  public interface Other {
    int call(int failures, long pushbackMillis);
  }

  private final AtomicInteger calls = new AtomicInteger();
  private final List<String> previousAttempts = Collections.synchronizedList(new ArrayList<>());
  private TripleServer server;
  private TripleClient client;

  private int flaky(int failures, long pushbackMillis) {
    previousAttempts.add(String.valueOf(ServerContext.current().requestHeaders().get("grpc-previous-rpc-attempts")));
    int n = calls.incrementAndGet();
    if (n <= failures) {
      if (pushbackMillis != 0) {
        ServerContext.current().responseTrailers().put("grpc-retry-pushback-ms", Long.toString(pushbackMillis));
      }
      throw Status.UNAVAILABLE.withDescription("not yet: call " + n).asException();
    }
    return n;
  }

  @BeforeEach
  void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Flaky.class, this::flaky)
        .addService(Other.class, this::flaky)
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port())
        .retryPolicy(RetryPolicy.builder().maxAttempts(4).initialBackoff(Duration.ofMillis(5))
            .maxBackoff(Duration.ofMillis(20)).retryableStatusCodes(Status.Code.UNAVAILABLE).build(), "triple.test.Flaky")
        .build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void aFlakyServiceIsReachedOnALaterAttemptThatNamesThoseBefore() {
    assertEquals(3, client.proxy(Flaky.class).call(2, 0));
    assertEquals(List.of("null", "1", "2"), previousAttempts);
  }

  @Test
  void attemptsEndAtTheMaximum() {
    StatusException e = assertThrows(StatusException.class, () -> client.proxy(Flaky.class).call(10, 0));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    assertEquals("not yet: call 4", e.status().description());
    assertEquals(4, calls.get());
  }

  @Test
  void aNegativePushbackStopsRetrying() {
    StatusException e = assertThrows(StatusException.class, () -> client.proxy(Flaky.class).call(3, -1));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    assertEquals(1, calls.get());
  }

  @Test
  void aPositivePushbackIsWaitedAndTheCallGoesOn() {
    assertEquals(2, client.proxy(Flaky.class).call(1, 10));
  }

  @Test
  void aServiceWithoutAPolicyIsNotRetried() {
    assertThrows(StatusException.class, () -> client.proxy(Other.class).call(1, 0));
    assertEquals(1, calls.get());
  }
}
