package io.triplerpc.transport.netty.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.RetryPolicy;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.testing.FaultProxy;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
 * policy are not retried; a call cut by a connection reset ({@link FaultProxy}) goes again on a new
 * connection. (The backoff is real here but short; its timing is tested on a controllable clock in
 * RetryingCallsTest.)
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

  @TripleService(name = "triple.test.Slow")
  public interface Slow {
    /** The first call waits until the test lets it go (it never does: the connection is reset); later ones answer. */
    CompletableFuture<String> once(String value);
  }

  @Test
  void aCallCutByAConnectionResetGoesAgainOnANewConnection() throws Exception {
    AtomicInteger seen = new AtomicInteger();
    CountDownLatch firstAttempt = new CountDownLatch(1);
    TripleServer slowServer = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Slow.class, value -> {
          if (seen.incrementAndGet() == 1) {
            firstAttempt.countDown();
            return new CompletableFuture<>();
          }
          return CompletableFuture.completedFuture("again: " + value);
        })
        .build().start();
    try (FaultProxy proxy = FaultProxy.start(new InetSocketAddress("127.0.0.1", slowServer.port()));
        TripleClient throughProxy = TripleClient.builder().address("127.0.0.1", proxy.port())
            .retryPolicy(RetryPolicy.builder().initialBackoff(Duration.ofMillis(5)).build(), "triple.test.Slow")
            .build()) {
      CompletableFuture<String> call = throughProxy.proxy(Slow.class).once("x");
      assertTrue(firstAttempt.await(10, TimeUnit.SECONDS), "the first attempt reached the server");
      proxy.reset();
      assertEquals("again: x", call.get(20, TimeUnit.SECONDS), "the reset attempt failed UNAVAILABLE and went again");
      assertEquals(2, proxy.connectionsAccepted());
    } finally {
      slowServer.shutdownNow();
      slowServer.awaitTermination(Duration.ofSeconds(10));
    }
  }
}
