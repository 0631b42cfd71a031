package io.triplerpc.benchmark.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A bounded window of non-blocking calls in flight, as every contender's getUserAsync keeps per
 * thread: a call takes a slot before it starts and gives it back when it completes. A failed call
 * fails the run at the next call instead of counting as an operation.
 */
public class CallWindow {

  private final int size;
  private final Semaphore slots;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  public CallWindow(int size) {
    this.size = size;
    this.slots = new Semaphore(size);
  }

  /** Waits for a free slot; throws if an earlier call failed. */
  public void acquire() throws InterruptedException {
    check();
    slots.acquire();
  }

  /** A call ended, with {@code error} null on success. */
  public void completed(Throwable error) {
    if (error != null) {
      failure.compareAndSet(null, error);
    }
    slots.release();
  }

  /** Throws if a call failed. */
  public void check() {
    Throwable error = failure.get();
    if (error != null) {
      throw new IllegalStateException("An asynchronous call failed", error);
    }
  }

  /** Waits until no call is in flight, then throws if one failed. */
  public void drain() throws InterruptedException {
    awaitIdle();
    check();
  }

  /** Waits until no call is in flight. */
  public void awaitIdle() throws InterruptedException {
    if (!slots.tryAcquire(size, 120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("Calls still in flight after 120 s");
    }
    slots.release(size);
  }

  /**
   * The windows of one trial. JMH lets the first thread done with its own window tear the trial down
   * while other threads still have calls in flight: the tear-down waits for the group before it
   * closes the client, or those calls fail (or, with Dubbo, never complete).
   */
  public static final class Group {
    private final Queue<CallWindow> windows = new ConcurrentLinkedQueue<>();

    public void add(CallWindow window) {
      windows.add(window);
    }

    /** Waits until no window of the group has a call in flight, then forgets them. */
    public void awaitIdle() throws InterruptedException {
      for (CallWindow window : windows) {
        window.awaitIdle();
      }
      windows.clear();
    }

    /**
     * As {@link #awaitIdle}, then throws if a call of any window failed: a failure after a thread's last
     * call, which no {@link #acquire} will see, still fails the trial.
     */
    public void drain() throws InterruptedException {
      List<CallWindow> drained = new ArrayList<>(windows);
      awaitIdle();
      for (CallWindow window : drained) {
        window.check();
      }
    }
  }
}
