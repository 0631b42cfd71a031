package io.triplerpc;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Sends a call more than once, in parallel, to cut its tail latency, with gRPC's hedging semantics
 * (proposal A6, grpc-java's service config {@code hedgingPolicy}): the first attempt at once, another
 * after each {@link #hedgingDelay()} while none has answered, up to {@link #maxAttempts()}. The first
 * attempt to answer (response headers or a message) wins and the others are cancelled; an attempt that
 * fails with a status in {@link #nonFatalStatusCodes()} lets the others go on (and the next one starts at
 * once), any other failure ends the call. For idempotent methods only: a server may run every attempt.
 * Immutable.
 */
public final class HedgingPolicy {

  private final int maxAttempts;
  private final Duration hedgingDelay;
  private final Set<Status.Code> nonFatalStatusCodes;

  private HedgingPolicy(Builder builder) {
    this.maxAttempts = Math.min(builder.maxAttempts, RetryPolicy.MAX_ATTEMPTS_CAP);
    this.hedgingDelay = builder.hedgingDelay;
    this.nonFatalStatusCodes = Set.copyOf(builder.nonFatalStatusCodes);
  }

  /** A policy to build: 2 attempts, 100 ms apart, UNAVAILABLE non-fatal. */
  public static Builder builder() {
    return new Builder();
  }

  /** Attempts in all, the first included; at most {@link RetryPolicy#MAX_ATTEMPTS_CAP}. */
  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration hedgingDelay() {
    return hedgingDelay;
  }

  public Set<Status.Code> nonFatalStatusCodes() {
    return nonFatalStatusCodes;
  }

  @Override
  public String toString() {
    return "HedgingPolicy{maxAttempts=" + maxAttempts + ", hedgingDelay=" + hedgingDelay + ", nonFatalStatusCodes="
        + nonFatalStatusCodes + '}';
  }

  /** Builds a {@link HedgingPolicy}. Not thread-safe. */
  public static final class Builder {
    private int maxAttempts = 2;
    private Duration hedgingDelay = Duration.ofMillis(100);
    private Set<Status.Code> nonFatalStatusCodes = EnumSet.of(Status.Code.UNAVAILABLE);

    private Builder() {}

    /** Attempts in all, at least 2; more than {@link RetryPolicy#MAX_ATTEMPTS_CAP} count as that many. */
    public Builder maxAttempts(int attempts) {
      this.maxAttempts = RetryPolicy.Builder.checkAttempts(attempts);
      return this;
    }

    /** The wait before each further attempt; zero sends them all at once. */
    public Builder hedgingDelay(Duration delay) {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative()) {
        throw new IllegalArgumentException("hedgingDelay must not be negative: " + delay);
      }
      this.hedgingDelay = delay;
      return this;
    }

    /** The failures that let the other attempts go on; may be empty, not OK. */
    public Builder nonFatalStatusCodes(Status.Code... codes) {
      this.nonFatalStatusCodes = RetryPolicy.Builder.failures(codes, true, "nonFatalStatusCodes");
      return this;
    }

    public HedgingPolicy build() {
      return new HedgingPolicy(this);
    }
  }
}
