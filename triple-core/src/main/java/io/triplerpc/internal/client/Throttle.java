package io.triplerpc.internal.client;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * gRPC's retry throttling (A6), one per client: tokens start at {@code maxTokens}; a failure a policy
 * would retry takes one, a success gives back {@code tokenRatio}; retries and hedges go only while
 * more than half are left. Thread-safe.
 */
final class Throttle {

  private final int maxMilliTokens;
  private final int ratioMilliTokens;
  private final AtomicInteger milliTokens;

  Throttle(int maxTokens, double tokenRatio) {
    this.maxMilliTokens = maxTokens * 1000;
    this.ratioMilliTokens = (int) Math.round(tokenRatio * 1000);
    this.milliTokens = new AtomicInteger(maxMilliTokens);
  }

  /** A failure a policy would retry; whether a retry may follow. */
  boolean failedMayRetry() {
    int now = milliTokens.updateAndGet(t -> Math.max(0, t - 1000));
    return now > maxMilliTokens / 2;
  }

  void succeeded() {
    milliTokens.updateAndGet(t -> Math.min(maxMilliTokens, t + ratioMilliTokens));
  }
}
