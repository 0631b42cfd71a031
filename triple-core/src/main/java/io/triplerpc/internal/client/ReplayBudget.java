package io.triplerpc.internal.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of requests that a client's calls keep for another attempt, bounded as grpc-java bounds its
 * retry buffer (16 MiB per channel by default): a call that would pass the bound keeps nothing and
 * cannot go again. Thread-safe.
 */
final class ReplayBudget {

  private final long limit;
  private final AtomicLong kept = new AtomicLong();

  ReplayBudget(long limit) {
    this.limit = limit;
  }

  /** Takes {@code bytes} from the budget; false, taking nothing, if that would pass its limit. */
  boolean take(long bytes) {
    long before;
    do {
      before = kept.get();
      if (before + bytes > limit) {
        return false;
      }
    } while (!kept.compareAndSet(before, before + bytes));
    return true;
  }

  void giveBack(long bytes) {
    kept.addAndGet(-bytes);
  }

  /** Bytes kept now, by all calls. */
  long kept() {
    return kept.get();
  }
}
