package io.triplerpc.testing;

import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * {@link ManualClock}'s scheduler, which code under test may call from any thread (an event loop, a
 * resolver's thread): a task is queued here with its deadline, read off the clock when it was
 * scheduled, and moved onto the clock's embedded loop, whose queues are not thread-safe, by the test's
 * thread when the clock next runs tasks. A cancel only marks the task, which then does nothing when
 * its time comes; no lock is taken, so no lock of the code under test can be held against the clock's.
 */
final class ClockScheduler implements ScheduledExecutorService {

  private final ScheduledExecutorService loop;
  private final LongSupplier nanoTime;
  private final Queue<Task<?>> inbox = new ConcurrentLinkedQueue<>();
  private volatile boolean shutdown;

  ClockScheduler(ScheduledExecutorService loop, LongSupplier nanoTime) {
    this.loop = loop;
    this.nanoTime = nanoTime;
  }

  /** Moves what was scheduled since onto the loop. The test's thread, before the clock runs tasks. */
  void transfer() {
    Task<?> task;
    while ((task = inbox.poll()) != null) {
      task.transfer();
    }
  }

  /** Whether tasks wait to be moved onto the loop. */
  boolean hasQueued() {
    return !inbox.isEmpty();
  }

  private <V> Task<V> queue(Callable<V> callable, long delayNanos, long periodNanos, boolean fixedRate) {
    if (shutdown) {
      throw new java.util.concurrent.RejectedExecutionException("The manual clock's scheduler is shut down");
    }
    Task<V> task = new Task<>(callable, nanoTime.getAsLong() + Math.max(0, delayNanos), periodNanos, fixedRate);
    inbox.add(task);
    return task;
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return queue(Executors.callable(command), unit.toNanos(delay), 0, false);
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return queue(callable, unit.toNanos(delay), 0, false);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    return queue(Executors.callable(command), unit.toNanos(initialDelay), unit.toNanos(period), true);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    return queue(Executors.callable(command), unit.toNanos(initialDelay), unit.toNanos(delay), false);
  }

  @Override
  public void execute(Runnable command) {
    schedule(command, 0, TimeUnit.NANOSECONDS);
  }

  @Override
  public <T> Future<T> submit(Callable<T> task) {
    return schedule(task, 0, TimeUnit.NANOSECONDS);
  }

  @Override
  public <T> Future<T> submit(Runnable task, T result) {
    return schedule(Executors.callable(task, result), 0, TimeUnit.NANOSECONDS);
  }

  @Override
  public Future<?> submit(Runnable task) {
    return schedule(task, 0, TimeUnit.NANOSECONDS);
  }

  /** Stops taking tasks; those queued still run when the clock moves (the clock's close drops them). */
  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown;
  }

  /** Not supported: the tasks run only when the test moves the clock, so a wait here would not end. */
  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    throw unsupported();
  }

  @Override
  public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) {
    throw unsupported();
  }

  @Override
  public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit) {
    throw unsupported();
  }

  @Override
  public <T> T invokeAny(Collection<? extends Callable<T>> tasks) {
    throw unsupported();
  }

  @Override
  public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit) {
    throw unsupported();
  }

  private static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("A manual clock's tasks run when the test moves the clock");
  }

  /** A task and its deadline by the clock; once moved, run by the loop at that time unless cancelled. */
  private final class Task<V> implements ScheduledFuture<V> {

    private final Callable<V> callable;
    private final long periodNanos;
    private final boolean fixedRate;
    private final CompletableFuture<V> result = new CompletableFuture<>();
    /** The clock's time of the next run. */
    private volatile long deadlineNanos;

    Task(Callable<V> callable, long deadlineNanos, long periodNanos, boolean fixedRate) {
      this.callable = callable;
      this.deadlineNanos = deadlineNanos;
      this.periodNanos = periodNanos;
      this.fixedRate = fixedRate;
    }

    void transfer() {
      if (result.isDone()) {
        return;
      }
      long delay = Math.max(0, deadlineNanos - nanoTime.getAsLong());
      if (periodNanos <= 0) {
        loop.schedule(this::runOnce, delay, TimeUnit.NANOSECONDS);
      } else if (fixedRate) {
        loop.scheduleAtFixedRate(this::runPeriodically, delay, periodNanos, TimeUnit.NANOSECONDS);
      } else {
        loop.scheduleWithFixedDelay(this::runPeriodically, delay, periodNanos, TimeUnit.NANOSECONDS);
      }
    }

    private void runOnce() {
      if (result.isDone()) {
        return;
      }
      try {
        result.complete(callable.call());
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    }

    private void runPeriodically() {
      if (result.isDone()) {
        // Cancelled: the loop's periodic task runs on, doing nothing, until the clock closes.
        return;
      }
      try {
        callable.call();
      } catch (Throwable t) {
        result.completeExceptionally(t);
        return;
      }
      deadlineNanos = fixedRate ? deadlineNanos + periodNanos : nanoTime.getAsLong() + periodNanos;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return result.cancel(false);
    }

    @Override
    public boolean isCancelled() {
      return result.isCancelled();
    }

    @Override
    public boolean isDone() {
      return result.isDone();
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
      return result.get();
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
      return result.get(timeout, unit);
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(deadlineNanos - nanoTime.getAsLong(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }
  }
}
