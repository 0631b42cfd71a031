package io.triplerpc.internal.client;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor of a synchronous unary call: the event loop hands it the call's events and the thread
 * that made the call runs them itself, in {@link #waitAndDrain}, so the response is deserialized on
 * the calling thread with no hand-off to a pool.
 *
 * <p>Waking a parked thread is the dearest part of handing it work (a futex call on each side), so it
 * happens at most once per park: {@link #execute} wakes the caller only if it is still parked and
 * nobody woke it yet, and {@link #executeLater} queues an event that can wait for the next wake-up
 * (a unary call's headers and message are of no use to its caller before the call closes).
 *
 * <p>{@link #execute} and {@link #executeLater} may be called from any thread; {@link #waitAndDrain}
 * only by the one thread that owns the call.
 */
final class ThreadlessExecutor extends ConcurrentLinkedQueue<Runnable> implements Executor {

  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(ThreadlessExecutor.class);

  private static final AtomicReferenceFieldUpdater<ThreadlessExecutor, Thread> WAITER =
      AtomicReferenceFieldUpdater.newUpdater(ThreadlessExecutor.class, Thread.class, "waiter");

  /** The thread parked (or about to park) in {@link #waitAndDrain} and not yet woken, or null. */
  private transient volatile Thread waiter;
  /** The caller left (interrupted): tasks run on the thread that hands them over. */
  private transient volatile boolean abandoned;

  /**
   * Parks until at least one task is queued, then runs every queued task.
   *
   * @throws InterruptedException if the thread was interrupted while parked
   */
  void waitAndDrain() throws InterruptedException {
    Runnable task = poll();
    if (task == null) {
      Thread self = Thread.currentThread();
      try {
        while (true) {
          // Published before the queue is checked, and execute() adds before it reads the waiter:
          // one of the two always sees the other.
          waiter = self;
          if ((task = poll()) != null) {
            break;
          }
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

  /** Runs whatever is queued without waiting. */
  void drainNow() {
    Runnable task;
    while ((task = poll()) != null) {
      runQuietly(task);
    }
  }

  /**
   * The caller stops waiting (it was interrupted): what is queued runs now, and whatever the call
   * still hands over (a response that was on its way, holding a buffer) runs on the thread that hands
   * it over, so nothing is left in a queue nobody drains.
   */
  void abandon() {
    abandoned = true;
    drainNow();
  }

  @Override
  public void execute(Runnable task) {
    add(task);
    // Added before the flag is read, and abandon() sets it before it drains: one of the two runs it.
    if (abandoned) {
      drainNow();
      return;
    }
    Thread w = waiter;
    if (w != null && WAITER.compareAndSet(this, w, null)) {
      LockSupport.unpark(w);
    }
  }

  /** Queues {@code task} without waking the caller: it runs before anything queued after it. */
  void executeLater(Runnable task) {
    add(task);
    if (abandoned) {
      drainNow();
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
