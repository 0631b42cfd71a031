package io.triplerpc.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Records what discovery reports, for tests to wait on: each export's sizes in order, each push's lag
 * with its application, and the threads that reported. Waits end when the reports are in, or fail
 * after 10 s.
 */
public final class RecordingDiscoveryObserver implements DiscoveryObserver {

  private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** Sizes by {@link #export}, in the order reported. Guarded by this. */
  private final Map<String, List<Integer>> sizes = new HashMap<>();
  /** {@code application=lag} of each push, in the order reported. Guarded by this. */
  private final List<String> lags = new ArrayList<>();
  private final Set<Thread> threads = new LinkedHashSet<>();
  /** A lock no report may come under; null for none. */
  private volatile Object forbiddenLock;
  private boolean reportedUnderForbiddenLock;

  /** How reports name an export: {@code service:version:group}. */
  public static String export(String service, String version, String group) {
    return service + ":" + version + ":" + group;
  }

  /** How {@link #lags} names a push's lag. */
  public static String lag(String application, long lagNanos) {
    return application + "=" + lagNanos;
  }

  /** Notes any report made while the reporting thread holds {@code lock}. */
  public void forbidReportsUnder(Object lock) {
    forbiddenLock = lock;
  }

  @Override
  public synchronized void instancesChanged(String service, String version, String group, int instances) {
    noted();
    sizes.computeIfAbsent(export(service, version, group), e -> new ArrayList<>()).add(instances);
    notifyAll();
  }

  @Override
  public synchronized void pushApplied(String application, long lagNanos) {
    noted();
    lags.add(lag(application, lagNanos));
    notifyAll();
  }

  private void noted() {
    threads.add(Thread.currentThread());
    Object lock = forbiddenLock;
    reportedUnderForbiddenLock |= lock != null && Thread.holdsLock(lock);
  }

  /** The sizes reported for {@code export} so far, once there are at least {@code count}. */
  public synchronized List<Integer> sizes(String export, int count) throws InterruptedException {
    awaitUntil(() -> sizes.getOrDefault(export, List.of()).size() >= count,
        () -> count + " sizes of " + export + "; reported: " + sizes);
    return List.copyOf(sizes.get(export));
  }

  /**
   * Returns once the latest size reported for {@code export} is {@code instances}: calls are spread over
   * that many instances now (discovery reports after each change is in use).
   */
  public synchronized void awaitSize(String export, int instances) throws InterruptedException {
    awaitUntil(() -> {
      List<Integer> reported = sizes.getOrDefault(export, List.of());
      return !reported.isEmpty() && reported.get(reported.size() - 1) == instances;
    }, () -> instances + " instances of " + export + "; reported: " + sizes);
  }

  /** {@link #awaitSize(String, int)} for the export of {@code service} with no version or group. */
  public void awaitInstances(String service, int instances) throws InterruptedException {
    awaitSize(export(service, "", ""), instances);
  }

  /** The sizes reported for {@code export} so far, without waiting. */
  public synchronized List<Integer> sizesNow(String export) {
    return List.copyOf(sizes.getOrDefault(export, List.of()));
  }

  /** The lags reported so far ({@link #lag}), once there are at least {@code count}. */
  public synchronized List<String> lags(int count) throws InterruptedException {
    awaitUntil(() -> lags.size() >= count, () -> count + " push lags; reported: " + lags);
    return List.copyOf(lags);
  }

  /** The lags reported so far, without waiting. */
  public synchronized List<String> lagsNow() {
    return List.copyOf(lags);
  }

  /** The threads that reported so far. */
  public synchronized Set<Thread> threads() {
    return Set.copyOf(threads);
  }

  /** Whether a report came while its thread held the lock given to {@link #forbidReportsUnder}. */
  public synchronized boolean reportedUnderForbiddenLock() {
    return reportedUnderForbiddenLock;
  }

  /** Waits, holding this lock between checks, until {@code done}; fails saying {@code what} after 10 s. */
  private void awaitUntil(BooleanSupplier done, Supplier<String> what) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    while (!done.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("Timed out waiting for " + what.get());
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }
}
