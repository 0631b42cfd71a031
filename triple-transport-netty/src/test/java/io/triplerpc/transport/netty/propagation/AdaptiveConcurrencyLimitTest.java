package io.triplerpc.transport.netty.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.AdaptiveConcurrencyLimit;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.testing.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The adaptive concurrency limit on a real server under overload: with it on, calls past the limit fail at
 * once with RESOURCE_EXHAUSTED and the service never runs more than the limit; with it off, every call is
 * taken and queues in the service. Streaming calls are not counted. How the limit moves is
 * {@code VegasLimiterTest}'s subject.
 */
class AdaptiveConcurrencyLimitTest {

  @TripleService(name = "triple.test.Overloaded")
  public interface Overloaded {
    /** Completes when the test completes {@code id}. */
    CompletableFuture<String> hold(String id);

    /** Streams {@code count} values. */
    void count(int count, StreamObserver<String> values);
  }

  private final Map<String, CompletableFuture<String>> holds = new ConcurrentHashMap<>();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger mostRunning = new AtomicInteger();
  private final AtomicInteger reached = new AtomicInteger();
  /** Fired when the service is reached and when a call's future completes. */
  private final Signal progress = new Signal();
  private TripleServer server;
  private TripleClient client;

  private CompletableFuture<String> holdOf(String id) {
    return holds.computeIfAbsent(id, k -> new CompletableFuture<>());
  }

  private Overloaded start(TripleServer.Builder builder) {
    server = builder.host("127.0.0.1").port(0).addService(Overloaded.class, new Overloaded() {
      @Override
      public CompletableFuture<String> hold(String id) {
        reached.incrementAndGet();
        mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        CompletableFuture<String> held = holdOf(id).whenComplete((value, failure) -> running.decrementAndGet());
        progress.fire();
        return held;
      }

      @Override
      public void count(int count, StreamObserver<String> values) {
        for (int i = 0; i < count; i++) {
          values.onNext(Integer.toString(i));
        }
        values.onCompleted();
      }
    }).build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    return client.proxy(Overloaded.class);
  }

  @AfterEach
  void stop() throws InterruptedException {
    holds.values().forEach(f -> f.complete("end"));
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  /** Sends {@code calls} holds, waits until each was either refused or taken, and returns them. */
  private List<CompletableFuture<String>> overload(Overloaded service, int calls) throws InterruptedException {
    List<CompletableFuture<String>> sent = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      CompletableFuture<String> call = service.hold(Integer.toString(i));
      call.whenComplete((value, failure) -> progress.fire());
      sent.add(call);
    }
    progress.await(() -> sent.stream().filter(CompletableFuture::isDone).count() + reached.get() == calls,
        "every call refused or taken");
    return sent;
  }

  private static Status.Code failure(CompletableFuture<String> call) {
    try {
      call.join();
      return Status.Code.OK;
    } catch (CompletionException e) {
      return assertInstanceOf(StatusException.class, e.getCause()).status().code();
    }
  }

  @Test
  void withTheLimitOnCallsPastItFailFastAndTheServiceRunsNoMoreThanTheLimit() throws Exception {
    Overloaded service = start(TripleServer.builder()
        .adaptiveConcurrencyLimit(AdaptiveConcurrencyLimit.vegas().withLimits(4, 1, 4)));
    List<CompletableFuture<String>> sent = overload(service, 12);

    assertEquals(4, reached.get(), "the limit admits 4 calls");
    assertEquals(4, mostRunning.get());
    long refused = sent.stream().filter(CompletableFuture::isDone)
        .filter(call -> failure(call) == Status.Code.RESOURCE_EXHAUSTED).count();
    assertEquals(8, refused, "the other 8 fail with RESOURCE_EXHAUSTED while the admitted ones still run");

    List<String> answers = new ArrayList<>();
    holds.forEach((id, hold) -> hold.complete("done " + id));
    for (CompletableFuture<String> call : sent) {
      if (failure(call) == Status.Code.OK) {
        answers.add(call.get(10, TimeUnit.SECONDS));
      }
    }
    assertEquals(4, answers.size());
    holds.clear();
    holdOf("again").complete("again");
    assertEquals("again", service.hold("again").get(10, TimeUnit.SECONDS), "slots come back when calls end");
  }

  @Test
  void withTheLimitOffEveryCallIsTakenAndQueues() throws Exception {
    Overloaded service = start(TripleServer.builder());
    List<CompletableFuture<String>> sent = overload(service, 12);

    assertEquals(12, reached.get());
    assertEquals(12, mostRunning.get(), "nothing sheds: all 12 wait in the service");
    assertTrue(sent.stream().noneMatch(CompletableFuture::isDone));
  }

  @Test
  void streamingCallsAreNotCounted() throws Exception {
    Overloaded service = start(TripleServer.builder()
        .adaptiveConcurrencyLimit(AdaptiveConcurrencyLimit.vegas().withLimits(2, 1, 2)));
    overload(service, 2);
    assertEquals(2, reached.get());

    List<String> values = new ArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    service.count(3, new StreamObserver<>() {
      @Override
      public void onNext(String value) {
        values.add(value);
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        done.complete(null);
      }
    });
    done.get(10, TimeUnit.SECONDS);
    assertEquals(List.of("0", "1", "2"), values, "a stream runs while the unary limit is full");
  }

  @Test
  void aFixedLimitThatRefusesGivesTheAdaptiveSlotBack() throws Exception {
    Overloaded service = start(TripleServer.builder()
        .adaptiveConcurrencyLimit(AdaptiveConcurrencyLimit.vegas().withLimits(2, 1, 2))
        .maxConcurrentCalls("triple.test.Overloaded/hold", 1));
    overload(service, 1);
    for (int i = 0; i < 5; i++) {
      CompletableFuture<String> refused = service.hold("refused" + i);
      StatusException status = assertInstanceOf(StatusException.class,
          assertThrows(CompletionException.class, refused::join).getCause());
      assertTrue(status.status().description().contains("maxConcurrentCalls"),
          "refused by the fixed limit, not the adaptive one: " + status.status().description());
    }
  }
}
