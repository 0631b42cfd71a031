package io.triplerpc;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * When a failed call goes again, with gRPC's retry semantics (gRPC proposal A6, grpc-java's service config
 * {@code retryPolicy}): up to {@link #maxAttempts()} attempts in all, each after a random delay between 0
 * and the current backoff (starting at {@link #initialBackoff()}, multiplied by {@link #backoffMultiplier()}
 * after each, at most {@link #maxBackoff()}), for a status in {@link #retryableStatusCodes()}, and only
 * while the call is not committed: no response headers or messages received, and what it sent still fits
 * the retry buffer. A server's {@code grpc-retry-pushback-ms} trailer sets the next delay (a negative one
 * stops retrying); each attempt after the first carries {@code grpc-previous-rpc-attempts}; the call's
 * deadline covers every attempt. Immutable.
 *
 * <pre>{@code
 * TripleClient.builder().address("orders:50051")
 *     .retryPolicy(RetryPolicy.builder().maxAttempts(4).initialBackoff(Duration.ofMillis(100))
 *         .retryableStatusCodes(Status.Code.UNAVAILABLE).build(), "shop.Orders")
 * }</pre>
 */
public final class RetryPolicy {

  /** gRPC caps attempts at five, whatever a policy says. */
  public static final int MAX_ATTEMPTS_CAP = 5;

  private final int maxAttempts;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final double backoffMultiplier;
  private final Set<Status.Code> retryableStatusCodes;

  private RetryPolicy(Builder builder) {
    this.maxAttempts = Math.min(builder.maxAttempts, MAX_ATTEMPTS_CAP);
    this.initialBackoff = builder.initialBackoff;
    this.maxBackoff = builder.maxBackoff;
    this.backoffMultiplier = builder.backoffMultiplier;
    this.retryableStatusCodes = Set.copyOf(builder.retryableStatusCodes);
  }

  /** A policy to build: 3 attempts, backoff from 100 ms to 1 s multiplied by 2, UNAVAILABLE retried. */
  public static Builder builder() {
    return new Builder();
  }

  /** Attempts in all, the first included; at most {@link #MAX_ATTEMPTS_CAP}. */
  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration initialBackoff() {
    return initialBackoff;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  public double backoffMultiplier() {
    return backoffMultiplier;
  }

  public Set<Status.Code> retryableStatusCodes() {
    return retryableStatusCodes;
  }

  @Override
  public String toString() {
    return "RetryPolicy{maxAttempts=" + maxAttempts + ", initialBackoff=" + initialBackoff + ", maxBackoff="
        + maxBackoff + ", backoffMultiplier=" + backoffMultiplier + ", retryableStatusCodes=" + retryableStatusCodes
        + '}';
  }

  /** Builds a {@link RetryPolicy}. Not thread-safe. */
  public static final class Builder {
    private int maxAttempts = 3;
    private Duration initialBackoff = Duration.ofMillis(100);
    private Duration maxBackoff = Duration.ofSeconds(1);
    private double backoffMultiplier = 2;
    private Set<Status.Code> retryableStatusCodes = EnumSet.of(Status.Code.UNAVAILABLE);

    private Builder() {}

    /** Attempts in all, at least 2; more than {@link #MAX_ATTEMPTS_CAP} count as that many. */
    public Builder maxAttempts(int attempts) {
      this.maxAttempts = checkAttempts(attempts);
      return this;
    }

    public Builder initialBackoff(Duration backoff) {
      this.initialBackoff = positive(backoff, "initialBackoff");
      return this;
    }

    public Builder maxBackoff(Duration backoff) {
      this.maxBackoff = positive(backoff, "maxBackoff");
      return this;
    }

    public Builder backoffMultiplier(double multiplier) {
      if (!(multiplier > 0) || Double.isInfinite(multiplier)) {
        throw new IllegalArgumentException("backoffMultiplier must be positive: " + multiplier);
      }
      this.backoffMultiplier = multiplier;
      return this;
    }

    /** The statuses that make a call go again; not empty, not OK. */
    public Builder retryableStatusCodes(Status.Code... codes) {
      this.retryableStatusCodes = failures(codes, false, "retryableStatusCodes");
      return this;
    }

    public RetryPolicy build() {
      return new RetryPolicy(this);
    }

    /** A hedging or retry policy's {@code maxAttempts}, checked. */
    static int checkAttempts(int attempts) {
      if (attempts < 2) {
        throw new IllegalArgumentException("maxAttempts must be at least 2: " + attempts);
      }
      return attempts;
    }

    /** Status codes that name failures only (and at least one, unless {@code emptyAllowed}). */
    static Set<Status.Code> failures(Status.Code[] codes, boolean emptyAllowed, String name) {
      Set<Status.Code> set = EnumSet.noneOf(Status.Code.class);
      for (Status.Code code : codes) {
        set.add(Objects.requireNonNull(code, "code"));
      }
      if ((set.isEmpty() && !emptyAllowed) || set.contains(Status.Code.OK)) {
        throw new IllegalArgumentException(name + " must name failures: " + set);
      }
      return set;
    }

    private static Duration positive(Duration duration, String what) {
      Objects.requireNonNull(duration, what);
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException(what + " must be positive: " + duration);
      }
      return duration;
    }
  }
}
