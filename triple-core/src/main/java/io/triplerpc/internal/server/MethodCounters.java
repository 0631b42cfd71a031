package io.triplerpc.internal.server;

import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import java.util.concurrent.atomic.LongAdder;

/**
 * The calls of one method since the server started, for the admin endpoint's {@code /calls}: made once per
 * method when the server starts, found with the method's route (no lookup of its own), and moved by one
 * uncontended add when a call starts and one when it ends. No allocation per call. Thread-safe.
 */
final class MethodCounters {

  private static final Status.Code[] CODES = Status.Code.values();

  private final MethodDescriptor<?, ?> method;
  private final LongAdder started = new LongAdder();
  /** Calls ended, by {@link Status.Code#ordinal()}. */
  private final LongAdder[] ended = new LongAdder[CODES.length];

  MethodCounters(MethodDescriptor<?, ?> method) {
    this.method = method;
    for (int i = 0; i < ended.length; i++) {
      ended[i] = new LongAdder();
    }
  }

  MethodDescriptor<?, ?> method() {
    return method;
  }

  /** A call started. */
  void started() {
    started.increment();
  }

  /** A call that {@link #started()} ended with {@code code}. */
  void ended(Status.Code code) {
    ended[code.ordinal()].increment();
  }

  /**
   * The counts now. Read without a lock while calls go on, so they are of a moment only roughly: the ends
   * are read before the starts, so that a call is never counted as ended but not started.
   */
  Snapshot snapshot() {
    long[] byCode = new long[ended.length];
    long endedTotal = 0;
    for (int i = 0; i < ended.length; i++) {
      byCode[i] = ended[i].sum();
      endedTotal += byCode[i];
    }
    long startedTotal = started.sum();
    return new Snapshot(method, startedTotal, Math.max(0, startedTotal - endedTotal), byCode);
  }

  /**
   * The counts of one method.
   *
   * @param endedByCode calls ended, by {@link Status.Code#ordinal()}
   */
  record Snapshot(MethodDescriptor<?, ?> method, long started, long inFlight, long[] endedByCode) {

    long succeeded() {
      return endedByCode[Status.Code.OK.ordinal()];
    }

    /** The code of {@code index} in {@link #endedByCode}. */
    static Status.Code code(int index) {
      return CODES[index];
    }
  }
}
