package io.triplerpc.internal.client;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor of a synchronous unary call: the event loop hands it the call's events and the thread
 * that made the call runs them itself, in {@link #waitAndDrain}, so the response is deserialized on
 * the calling thread with no hand-off to a pool.
 *
 * <p>{@link #execute} may be called from any thread; {@link #waitAndDrain} only by the one thread that
 * owns the call.
 */
final class ThreadlessExecutor extends ConcurrentLinkedQueue<Runnable> implements Executor {

  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(ThreadlessExecutor.class);

  /** The thread parked in {@link #waitAndDrain}, or null when none is. */
  private transient volatile Thread waiter;

  /**
   * Parks until at least one task is queued, then runs every queued task.
   *
   * @throws InterruptedException if the thread was interrupted while parked
   */
  void waitAndDrain() throws InterruptedException {
    Runnable task = poll();
    if (task == null) {
      waiter = Thread.currentThread();
      try {
        while ((task = poll()) == null) {
          LockSupport.park(this);
          if (Thread.interrupted()) {
            throw new InterruptedException();
          }
        }
      } finally {
        waiter = null;
      }
    }
    do {
      runQuietly(task);
    } while ((task = poll()) != null);
  }

  /** Runs whatever is queued without waiting; for cleanup after an interrupt. */
  void drainNow() {
    Runnable task;
    while ((task = poll()) != null) {
      runQuietly(task);
    }
  }

  @Override
  public void execute(Runnable task) {
    add(task);
    Thread w = waiter;
    if (w != null) {
      LockSupport.unpark(w);
    }
  }

  private static void runQuietly(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException | Error e) {
      log.error("Call event threw on the calling thread", e);
    }
  }
}
