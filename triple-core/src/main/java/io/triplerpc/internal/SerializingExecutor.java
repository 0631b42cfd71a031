package io.triplerpc.internal;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in the order they were submitted, on a shared executor: the per-call
 * ordering of callbacks without a thread per call. Thread-safe.
 */
public final class SerializingExecutor implements Executor, Runnable {

  private static final Logger log = LoggerFactory.getLogger(SerializingExecutor.class);

  private final Executor delegate;
  private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  /** True while a drain is scheduled or running; only its owner polls {@link #tasks}. */
  private final AtomicBoolean draining = new AtomicBoolean();
  /** Set by {@link #suspend}: the drain stops before its next task. */
  private volatile boolean suspended;
  /** The task {@link #resume} gave, to run before the queued ones; taken by the drain. */
  private volatile Runnable resumeWith;

  public SerializingExecutor(Executor delegate) {
    this.delegate = delegate;
  }

  @Override
  public void execute(Runnable task) {
    tasks.add(task);
    schedule();
  }

  /**
   * Queues {@code task} without starting a drain: it runs, in order, when the next {@link #execute}
   * does. Saves a thread hand-off for an event that is useless alone; the caller guarantees that a
   * later event comes.
   */
  public void executeLater(Runnable task) {
    tasks.add(task);
  }

  /** Starts a drain if tasks queued by {@link #executeLater} wait. */
  public void flush() {
    if (!tasks.isEmpty()) {
      schedule();
    }
  }

  /**
   * Holds back the tasks after the one running now until {@link #resume}: for a call that waits for
   * something asynchronous (its authentication) before its next event may run. Called only from a
   * task this executor runs.
   */
  public void suspend() {
    suspended = true;
  }

  /**
   * Ends a {@link #suspend}: {@code first} runs, then the tasks held back, in order. Any thread; at
   * most once per suspend.
   */
  public void resume(Runnable first) {
    resumeWith = first;
    suspended = false;
    schedule();
  }

  private void schedule() {
    if (draining.compareAndSet(false, true)) {
      try {
        delegate.execute(this);
      } catch (RejectedExecutionException e) {
        // The executor was shut down under calls still in flight: their last events (a close)
        // must not be lost, so they run here rather than never.
        log.warn("Callback executor rejected a task; running the call's callbacks on the calling thread");
        run();
      }
    }
  }

  @Override
  public void run() {
    try {
      Runnable task;
      while (!suspended && (task = next()) != null) {
        try {
          task.run();
        } catch (RuntimeException | Error e) {
          log.error("Callback threw; later callbacks of the call still run", e);
        }
      }
    } finally {
      draining.set(false);
    }
    // A task queued or a resume that came while this drain was ending found it still draining.
    if (!suspended && (resumeWith != null || !tasks.isEmpty())) {
      schedule();
    }
  }

  private Runnable next() {
    Runnable first = resumeWith;
    if (first != null) {
      resumeWith = null;
      return first;
    }
    return tasks.poll();
  }
}
