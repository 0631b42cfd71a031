package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallCredentials.AccessToken;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RefreshingTokenCredentialsTest {

  private static final Clock NOW = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  @Test
  void concurrentCallsShareOneFetchAndAllGetItsToken() throws Exception {
    AtomicInteger fetches = new AtomicInteger();
    CompletableFuture<AccessToken> fetch = new CompletableFuture<>();
    RefreshingTokenCredentials credentials = new RefreshingTokenCredentials(() -> {
      fetches.incrementAndGet();
      return fetch;
    }, NOW, Duration.ofSeconds(30));

    ExecutorService callers = Executors.newFixedThreadPool(8);
    try {
      List<CompletableFuture<Metadata>> headers = new ArrayList<>();
      CountDownLatch asked = new CountDownLatch(64);
      for (int i = 0; i < 64; i++) {
        CompletableFuture<Metadata> one = new CompletableFuture<>();
        headers.add(one);
        callers.execute(() -> {
          CompletionStage<Metadata> stage = credentials.requestHeaders(null);
          asked.countDown();
          stage.whenComplete((value, failure) -> one.complete(value));
        });
      }
      assertTrue(asked.await(10, TimeUnit.SECONDS));
      assertFalse(headers.get(0).isDone());

      fetch.complete(new AccessToken("shared", NOW.instant().plus(Duration.ofHours(1))));
      for (CompletableFuture<Metadata> one : headers) {
        assertEquals("Bearer shared", one.get(10, TimeUnit.SECONDS).get("authorization"));
      }
      assertEquals(1, fetches.get());
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void aSourceThatThrowsFailsTheCallAndIsAskedAgainNextTime() {
    AtomicInteger fetches = new AtomicInteger();
    RefreshingTokenCredentials credentials = new RefreshingTokenCredentials(() -> {
      if (fetches.incrementAndGet() == 1) {
        throw new IllegalStateException("no network");
      }
      return CompletableFuture.completedFuture(new AccessToken("second", Instant.MAX));
    }, NOW, Duration.ZERO);

    assertTrue(credentials.requestHeaders(null).toCompletableFuture().isCompletedExceptionally());
    assertEquals("Bearer second", credentials.requestHeaders(null).toCompletableFuture().join().get("authorization"));
    assertEquals(2, fetches.get());
  }
}
