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
import io.triplerpc.testing.Signal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fixed per-method concurrency limits ({@code maxConcurrentCalls}): calls past the limit fail at once with
 * RESOURCE_EXHAUSTED (429 over HTTP) instead of queueing; a call's slot comes back when it completes or is
 * cancelled; a method's own limit wins over its service's.
 */
class ConcurrencyLimitTest {

  @TripleService(name = "triple.test.Busy")
  public interface Busy {
    /** Completes when the test completes {@code id}. */
    CompletableFuture<String> hold(String id);

    /** Answers at once. */
    String quick(String value);
  }

  private final Map<String, CompletableFuture<String>> holds = new ConcurrentHashMap<>();
  private final Set<String> asked = ConcurrentHashMap.newKeySet();
  /** The holds whose calls ended on the server, slot given back (end listeners run after the limit's release). */
  private final Set<String> ended = ConcurrentHashMap.newKeySet();
  /** Fired when a hold reaches the service and when its call ends. */
  private final Signal onServer = new Signal();
  private TripleServer server;
  private TripleClient client;

  private CompletableFuture<String> holdOf(String id) {
    return holds.computeIfAbsent(id, k -> new CompletableFuture<>());
  }

  @BeforeEach
  void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Busy.class, new Busy() {
          @Override
          public CompletableFuture<String> hold(String id) {
            asked.add(id);
            ServerContext.current().addEndListener(status -> {
              ended.add(id);
              onServer.fire();
            });
            onServer.fire();
            return holdOf(id);
          }

          @Override
          public String quick(String value) {
            return value;
          }
        })
        .maxConcurrentCalls("triple.test.Busy", 1)
        .maxConcurrentCalls("triple.test.Busy/hold", 2)
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    holds.values().forEach(f -> f.complete("end"));
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  private CompletableFuture<String> held(Busy busy, String id) throws InterruptedException {
    CompletableFuture<String> call = busy.hold(id);
    onServer.await(() -> asked.contains(id), "the server holds " + id);
    return call;
  }

  @Test
  void callsPastTheLimitFailFastAndASlotComesBackWhenACallEnds() throws Exception {
    Busy busy = client.proxy(Busy.class);
    CompletableFuture<String> first = held(busy, "1");
    CompletableFuture<String> second = held(busy, "2");
    CompletionException refused = assertThrows(CompletionException.class, () -> busy.hold("3").join());
    StatusException status = assertInstanceOf(StatusException.class, refused.getCause());
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, status.status().code());
    assertEquals("triple.test.Busy/hold already runs 2 calls, its limit (maxConcurrentCalls)",
        status.status().description());
    assertTrue(!asked.contains("3"), "the refused call never reached the service");

    holdOf("1").complete("one");
    assertEquals("one", first.get(10, TimeUnit.SECONDS));
    CompletableFuture<String> fourth = held(busy, "4");
    holdOf("2").complete("two");
    holdOf("4").complete("four");
    assertEquals("two", second.get(10, TimeUnit.SECONDS));
    assertEquals("four", fourth.get(10, TimeUnit.SECONDS));
    assertEquals("q", busy.quick("q"), "the service's own limit of 1 applies to quick");
  }

  @Test
  void aCancelledCallGivesItsSlotBack() throws Exception {
    TripleClient leaving = TripleClient.builder().address("127.0.0.1", server.port()).build();
    Busy busy = leaving.proxy(Busy.class);
    held(busy, "a");
    held(busy, "b");
    leaving.close();
    Busy again = client.proxy(Busy.class);
    holdOf("c").complete("c");
    // Once the server ended the cancelled calls, their slots are back: the next call is admitted.
    onServer.await(() -> ended.containsAll(Set.of("a", "b")), "the server ended the cancelled calls");
    assertEquals("c", again.hold("c").get(10, TimeUnit.SECONDS), "a slot freed by the cancelled calls is used");
  }

  @Test
  void curlIsTold429() throws Exception {
    Busy busy = client.proxy(Busy.class);
    held(busy, "x");
    held(busy, "y");
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "-w", " %{http_code}", "-H",
        "content-type: application/json", "--data-binary", "\"z\"",
        "http://127.0.0.1:" + server.port() + "/triple.test.Busy/hold"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(20, TimeUnit.SECONDS));
    assertTrue(output.endsWith(" 429") && output.contains("\"code\":\"resource_exhausted\""), output);
  }

  @Test
  void namesThatAreNotServedOrLimitsThatAreNotPositiveAreRefused() {
    Busy none = new Busy() {
      @Override
      public CompletableFuture<String> hold(String id) {
        return CompletableFuture.completedFuture(id);
      }

      @Override
      public String quick(String value) {
        return value;
      }
    };
    IllegalArgumentException typo = assertThrows(IllegalArgumentException.class, () -> TripleServer.builder()
        .addService(Busy.class, none).maxConcurrentCalls("triple.test.Busy/hodl", 1).build());
    assertEquals("maxConcurrentCalls names triple.test.Busy/hodl, which this server does not serve", typo.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TripleServer.builder().maxConcurrentCalls("a.B", 0));
  }
}
