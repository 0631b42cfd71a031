package io.triplerpc.transport.netty.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client configured only by a JSON service config in gRPC's form, over real sockets: a service that
 * fails UNAVAILABLE twice is reached on the third attempt, each attempt naming those before it
 * ({@code grpc-previous-rpc-attempts}); a code the config does not list is not retried; a hedged method
 * answers from its second attempt while the first hangs, which is then cancelled; a method's
 * {@code timeout} becomes its calls' deadline; the config's {@code retryThrottling} stops retries.
 */
class ServiceConfigTest {

  @TripleService(name = "triple.test.Flaky")
  public interface Flaky {
    /** Fails with status {@code code} until called {@code failures + 1} times, then answers how many calls it took. */
    int call(int failures, int code);
  }

  @TripleService(name = "triple.test.Hedged")
  public interface Hedged {
    /** A first attempt never answers; a hedge (an attempt after the first) does. */
    CompletableFuture<String> find(String query);
  }

  @TripleService(name = "triple.test.Slow")
  public interface Slow {
    /** Never answers. */
    CompletableFuture<String> never(String value);
  }

  private static final String CONFIG = """
      {
        "methodConfig": [
          {
            "name": [{"service": "triple.test.Flaky"}],
            "retryPolicy": {
              "maxAttempts": 4,
              "initialBackoff": "0.005s",
              "maxBackoff": "0.02s",
              "backoffMultiplier": 2,
              "retryableStatusCodes": ["UNAVAILABLE"]
            }
          },
          {
            "name": [{"service": "triple.test.Hedged", "method": "find"}],
            "hedgingPolicy": {"maxAttempts": 2, "hedgingDelay": "0.1s", "nonFatalStatusCodes": ["UNAVAILABLE"]}
          },
          {
            "name": [{"service": "triple.test.Slow"}],
            "timeout": "1s"
          }
        ]
      }
      """;

  private final AtomicInteger calls = new AtomicInteger();
  private final List<String> previousAttempts = Collections.synchronizedList(new ArrayList<>());
  private final CompletableFuture<ServerContext> firstHedgedAttempt = new CompletableFuture<>();
  private final CompletableFuture<Long> slowCallsDeadline = new CompletableFuture<>();
  private TripleServer server;
  private TripleClient client;

  private int flaky(int failures, int code) {
    previousAttempts.add(previousAttempts());
    int n = calls.incrementAndGet();
    if (n <= failures) {
      throw Status.fromCodeValue(code).withDescription("not yet: call " + n).asException();
    }
    return n;
  }

  private CompletableFuture<String> hedged(String query) {
    String previous = previousAttempts();
    previousAttempts.add(previous);
    calls.incrementAndGet();
    if (previous.equals("null")) {
      firstHedgedAttempt.complete(ServerContext.current());
      return new CompletableFuture<>();
    }
    return CompletableFuture.completedFuture("found " + query);
  }

  private CompletableFuture<String> slow(String value) {
    slowCallsDeadline.complete(ServerContext.current().remainingNanos());
    return new CompletableFuture<>();
  }

  private static String previousAttempts() {
    return String.valueOf(ServerContext.current().requestHeaders().get("grpc-previous-rpc-attempts"));
  }

  @BeforeEach
  void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Flaky.class, this::flaky)
        .addService(Hedged.class, this::hedged)
        .addService(Slow.class, this::slow)
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).serviceConfig(CONFIG).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void aServiceThatFailsUnavailableTwiceIsReachedOnTheThirdAttempt() {
    assertEquals(3, client.proxy(Flaky.class).call(2, Status.Code.UNAVAILABLE.value()));
    assertEquals(List.of("null", "1", "2"), previousAttempts);
  }

  @Test
  void aCodeTheConfigDoesNotListIsNotRetried() {
    StatusException e = assertThrows(StatusException.class,
        () -> client.proxy(Flaky.class).call(1, Status.Code.INVALID_ARGUMENT.value()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.status().code());
    assertEquals(1, calls.get());
  }

  @Test
  void aHedgedMethodAnswersFromItsSecondAttemptAndTheFirstIsCancelled() throws Exception {
    assertEquals("found x", client.proxy(Hedged.class).find("x").get(10, TimeUnit.SECONDS));
    assertEquals(2, calls.get());
    assertEquals(List.of("1", "null"), previousAttempts.stream().sorted().toList());
    ServerContext first = firstHedgedAttempt.get(10, TimeUnit.SECONDS);
    CompletableFuture<Status> firstEnded = new CompletableFuture<>();
    first.addEndListener(firstEnded::complete);
    Status ended = firstEnded.get(10, TimeUnit.SECONDS);
    assertTrue(first.isCancelled(), "the server saw the first attempt cancelled: " + ended);
  }

  @Test
  void aMethodsTimeoutIsItsCallsDeadline() throws Exception {
    CompletableFuture<String> call = client.proxy(Slow.class).never("x");
    ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
    StatusException failure = assertInstanceOf(StatusException.class, e.getCause());
    assertEquals(Status.Code.DEADLINE_EXCEEDED, failure.status().code());
    long remaining = slowCallsDeadline.get(10, TimeUnit.SECONDS);
    assertTrue(remaining > 0 && remaining <= Duration.ofSeconds(1).toNanos(),
        "the server got the deadline (grpc-timeout): " + remaining + " ns left");
  }

  @Test
  void theConfigsRetryThrottlingStopsRetriesWhenHalfTheTokensAreGone() {
    try (TripleClient throttled = TripleClient.builder().address("127.0.0.1", server.port())
        .serviceConfig(CONFIG.replaceFirst("\\{", "{\"retryThrottling\": {\"maxTokens\": 4, \"tokenRatio\": 0.5},"))
        .build()) {
      StatusException e = assertThrows(StatusException.class,
          () -> throttled.proxy(Flaky.class).call(10, Status.Code.UNAVAILABLE.value()));
      assertEquals(Status.Code.UNAVAILABLE, e.status().code());
      assertEquals(2, calls.get(), "3 of 4 tokens left after the first failure, 2 after the second: no more");
    }
  }
}
