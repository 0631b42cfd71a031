package io.triplerpc.interop;

import io.triplerpc.Status;
import io.triplerpc.testing.Signal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One consumer's steady load on the cluster: every tick one idempotent call ({@link Ledger#read}) and one
 * that must run at most once ({@link Ledger#append}), each with its own id and the proxy's deadline,
 * and one line per ended call in the consumer's call log (see {@link ClusterLogs} for the format).
 * Thread-safe; calls end on the client's threads.
 */
final class ClusterCalls implements AutoCloseable {

  /** One ended call, as logged; times from {@link System#nanoTime()} and the wall clock. */
  record Call(String id, String method, boolean idempotent, long startNanos, long endNanos, long startMillis,
      long endMillis, Status.Code code, String message, String provider) {

    boolean ok() {
      return code == Status.Code.OK;
    }
  }

  private final String name;
  private final Ledger ledger;
  private final Writer log;
  private final Signal ended;
  private final ScheduledExecutorService ticks;
  private final AtomicLong sequence = new AtomicLong();
  /** The start of each call in flight, by id. */
  private final Map<String, Long> inFlight = new ConcurrentHashMap<>();
  /** Every ended call in the order they ended; guarded by this. */
  private final List<Call> calls = new ArrayList<>();
  private ScheduledFuture<?> load;
  /** Whether the log is closed (a call ending later, after a failed test, is not logged); guarded by this. */
  private boolean closed;

  /** Calls {@code ledger} (whose proxy carries the deadline) as consumer {@code name}, logging to {@code logFile}. */
  ClusterCalls(String name, Ledger ledger, Path logFile, Signal ended) throws IOException {
    this.name = name;
    this.ledger = ledger;
    this.log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8);
    this.ended = ended;
    this.ticks = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "load-" + name);
      thread.setDaemon(true);
      return thread;
    });
  }

  String name() {
    return name;
  }

  /** Starts a call pair every {@code period}, until {@link #stop}. */
  synchronized void start(Duration period) {
    load = ticks.scheduleAtFixedRate(() -> {
      call("read", true);
      call("append", false);
    }, 0, period.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Starts no more calls; those in flight still end and are logged. */
  synchronized void stop() {
    if (load != null) {
      load.cancel(false);
    }
  }

  /** The calls started and not ended yet. */
  int inFlight() {
    return inFlight.size();
  }

  /** Whether every call started before {@code nanos} has ended. */
  boolean endedAllStartedBefore(long nanos) {
    return inFlight.values().stream().allMatch(start -> start - nanos >= 0);
  }

  private void call(String method, boolean idempotent) {
    String id = name + '-' + sequence.incrementAndGet();
    long startMillis = System.currentTimeMillis();
    long start = System.nanoTime();
    inFlight.put(id, start);
    CompletableFuture<String> result;
    try {
      result = idempotent ? ledger.read(id) : ledger.append(id);
    } catch (RuntimeException e) {
      result = CompletableFuture.failedFuture(e);
    }
    result.whenComplete((provider, failure) -> {
      long end = System.nanoTime();
      Status status = failure == null ? Status.OK : Status.fromThrowable(failure);
      ended(new Call(id, method, idempotent, start, end, startMillis, System.currentTimeMillis(), status.code(),
          status.description() == null ? "" : status.description(), provider == null ? "-" : provider));
    });
  }

  private void ended(Call call) {
    synchronized (this) {
      calls.add(call);
      if (!closed) {
        try {
          log.write(ClusterLogs.callLine(call));
          log.write('\n');
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    inFlight.remove(call.id());
    ended.fire();
  }

  /** The calls ended so far, in the order they ended. */
  synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  /**
   * When calls succeeded again after {@code sinceNanos}: once the last {@code streak} calls started since
   * then have all ended OK, the start of the last call started since then that failed ({@code
   * sinceNanos} if none did), after which every call succeeded; null until then.
   */
  synchronized Long recoveredAt(long sinceNanos, int streak) {
    int ok = 0;
    for (int i = calls.size() - 1; i >= 0 && ok < streak; i--) {
      Call call = calls.get(i);
      if (call.startNanos() - sinceNanos < 0) {
        continue;
      }
      if (!call.ok()) {
        return null;
      }
      ok++;
    }
    if (ok < streak) {
      return null;
    }
    long lastFailure = sinceNanos;
    for (Call call : calls) {
      if (!call.ok() && call.startNanos() - lastFailure > 0) {
        lastFailure = call.startNanos();
      }
    }
    return lastFailure;
  }

  @Override
  public void close() throws IOException {
    stop();
    ticks.shutdownNow();
    synchronized (this) {
      closed = true;
      log.close();
    }
  }
}
