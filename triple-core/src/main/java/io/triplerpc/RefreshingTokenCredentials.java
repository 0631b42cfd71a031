package io.triplerpc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Bearer tokens fetched from a source and cached until shortly before they expire. Thread-safe: the
 * cached token and the fetch under way are swapped under this object's lock, never held during a
 * fetch.
 */
final class RefreshingTokenCredentials implements CallCredentials {

  private static final String AUTHORIZATION = "authorization";

  private final Supplier<? extends CompletionStage<AccessToken>> source;
  private final Clock clock;
  private final Duration refreshBeforeExpiry;

  /** The last token fetched, or null; guarded by this. */
  private AccessToken token;
  /** The headers of {@link #token}, built once per token (calls only read them); guarded by this. */
  private CompletableFuture<Metadata> tokenHeaders;
  /** The fetch under way, or null; guarded by this. */
  private CompletableFuture<AccessToken> fetching;

  public RefreshingTokenCredentials(
      Supplier<? extends CompletionStage<AccessToken>> source, Clock clock, Duration refreshBeforeExpiry) {
    this.source = Objects.requireNonNull(source, "source");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.refreshBeforeExpiry = Objects.requireNonNull(refreshBeforeExpiry, "refreshBeforeExpiry");
    if (refreshBeforeExpiry.isNegative()) {
      throw new IllegalArgumentException("refreshBeforeExpiry must not be negative: " + refreshBeforeExpiry);
    }
  }

  @Override
  public CompletionStage<Metadata> requestHeaders(RequestInfo request) {
    Instant now = clock.instant();
    CompletableFuture<AccessToken> started = null;
    CompletableFuture<AccessToken> waitFor;
    AccessToken usable;
    CompletableFuture<Metadata> usableHeaders;
    synchronized (this) {
      usable = token != null && now.isBefore(token.expiresAt()) ? token : null;
      usableHeaders = tokenHeaders;
      boolean refreshDue = usable == null || !now.isBefore(usable.expiresAt().minus(refreshBeforeExpiry));
      if (refreshDue && fetching == null) {
        started = fetching = new CompletableFuture<>();
      }
      waitFor = fetching;
    }
    if (started != null) {
      startFetch(started);
    }
    if (usable != null) {
      // Still valid: this call need not wait for a refresh that may be under way.
      return usableHeaders;
    }
    return waitFor.thenApply(RefreshingTokenCredentials::headersOf);
  }

  private void startFetch(CompletableFuture<AccessToken> fetch) {
    CompletionStage<AccessToken> fetched;
    try {
      fetched = Objects.requireNonNull(source.get(), "the token source returned null");
    } catch (RuntimeException e) {
      fetched = CompletableFuture.failedFuture(e);
    }
    fetched.whenComplete((fresh, failure) -> {
      synchronized (this) {
        if (failure == null && fresh != null) {
          token = fresh;
          tokenHeaders = CompletableFuture.completedFuture(headersOf(fresh));
        }
        fetching = null;
      }
      if (failure != null) {
        fetch.completeExceptionally(failure);
      } else if (fresh == null) {
        fetch.completeExceptionally(new IllegalStateException("the token source gave no token"));
      } else {
        fetch.complete(fresh);
      }
    });
  }

  private static Metadata headersOf(AccessToken token) {
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, "Bearer " + token.value());
    return headers;
  }

  @Override
  public String toString() {
    return "CallCredentials{bearer tokens from " + source + '}';
  }
}
