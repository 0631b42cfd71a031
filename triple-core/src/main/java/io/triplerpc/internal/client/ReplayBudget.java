package io.triplerpc.internal.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of streaming requests that the calls to one server address keep for a transparent retry,
 * bounded as grpc-java bounds its retry buffer (16 MiB per channel): a call that would pass the bound
 * keeps nothing and cannot go again. Thread-safe.
 */
final class ReplayBudget {

  /** As grpc-java's {@code retryBufferSize}. */
  static final long DEFAULT_LIMIT = 16L << 20;
  /** As grpc-java's {@code perRpcBufferLimit}. */
  static final long PER_CALL_LIMIT = 1L << 20;

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
