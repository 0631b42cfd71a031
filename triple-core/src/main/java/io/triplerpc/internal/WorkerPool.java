package io.triplerpc.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's default service pool: a shared queue that a few awake workers drain, so a busy pool
 * takes a task without waking a thread.
 *
 * <p>A cached thread pool hands each task to its own parked thread: a futex wake and a context switch
 * per call, which on a busy server cost more than the call. Here {@link #execute} only queues the
 * task, and wakes a worker only when none is already looking for work and fewer than
 * {@code parallelism} are awake; a worker that finishes a task takes the next one from the queue
 * without sleeping. A burst of calls read in one go is then run by one or two threads in a row.
 *
 * <p>Services may block, though, and a task must not wait for ever behind a worker that blocks (a
 * service calling another on the same server would deadlock). A watchdog looks at the workers every
 * {@code tick}: one that has run the same task across a whole tick counts as blocked and no longer
 * as awake, and while any worker is blocked the pool behaves as a cached pool does, a worker per
 * waiting task. So blocking services cost what they cost before, and the others do not pay for them.
 *
 * <p>Idle workers end after {@code keepAlive}, and so does the watchdog, which sleeps while no
 * worker is awake: an idle pool holds no thread, and threads start again with the next task.
 */
public final class WorkerPool implements Executor {

  private static final Logger log = LoggerFactory.getLogger(WorkerPool.class);
  private static final int IDLE = 0;
  private static final int RUNNING = 1;
  private static final int BLOCKED = 2;

  private final String threadPrefix;
  private final int parallelism;
  private final long tickNanos;
  private final long keepAliveNanos;
  private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
  /** Parked workers, most recently parked first (the others age out); may hold stale entries. */
  private final ConcurrentLinkedDeque<Worker> parked = new ConcurrentLinkedDeque<>();
  private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
  /** Workers woken or started that have not yet taken a task or gone back to sleep. */
  private final AtomicInteger searching = new AtomicInteger();
  /** Workers neither parked nor blocked: searching, running a task, or between tasks. */
  private final AtomicInteger awake = new AtomicInteger();
  /** Workers the watchdog found blocked that have not finished that task yet. */
  private final AtomicInteger blocked = new AtomicInteger();
  private final AtomicInteger threadCount = new AtomicInteger();
  private final AtomicInteger threadNumbers = new AtomicInteger();
  /** Whether this pool runs its own watchdog (else tests call {@link #tick()}). */
  private final boolean ownWatchdog;
  /** The watchdog thread now, or null before the first; a new one starts after one ended idle. */
  private volatile Thread watchdog;
  /** Whether a watchdog runs: started with a worker, it ends after {@code keepAlive} idle. */
  private final AtomicBoolean watchdogRunning = new AtomicBoolean();
  private volatile boolean watchdogAsleep;
  private volatile boolean shutdown;

  /**
   * @param threadPrefix names the threads: prefix-1, prefix-2, ...
   * @param parallelism workers awake at once while none blocks; the number of cores suits most
   * @param tick how long a task may run before the watchdog counts its worker as blocked
   * @param keepAlive how long an idle worker waits for work before it ends
   */
  public static WorkerPool create(String threadPrefix, int parallelism, Duration tick, Duration keepAlive) {
    return new WorkerPool(threadPrefix, parallelism, tick, keepAlive, true);
  }

  /**
   * The pool a server's services and a client's callbacks run on by default: one worker fewer than
   * there are cores (at least one), since the event loops, which read, route and write every call, need
   * a core (on two cores one worker serves 12% more calls than two under h2load at 32 streams,
   * docs/benchmarks.md); a worker counts as blocked after a millisecond on one task, long enough that
   * CPU-bound calls rarely trip it; idle threads end after a minute.
   */
  public static WorkerPool withDefaults(String threadPrefix) {
    int parallelism = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    return create(threadPrefix, parallelism, Duration.ofMillis(1), Duration.ofSeconds(60));
  }

  /** A pool whose watchdog does not run by itself: the caller calls {@link #tick()}. For tests. */
  static WorkerPool manual(String threadPrefix, int parallelism, Duration keepAlive) {
    return new WorkerPool(threadPrefix, parallelism, Duration.ZERO, keepAlive, false);
  }

  private WorkerPool(String threadPrefix, int parallelism, Duration tick, Duration keepAlive, boolean ownWatchdog) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be positive: " + parallelism);
    }
    this.threadPrefix = threadPrefix;
    this.parallelism = parallelism;
    this.tickNanos = tick.toNanos();
    this.keepAliveNanos = keepAlive.toNanos();
    this.ownWatchdog = ownWatchdog;
  }

  @Override
  public void execute(Runnable task) {
    if (shutdown) {
      throw new RejectedExecutionException("The pool is shut down");
    }
    queue.offer(task);
    if (searching.get() == 0) {
      trySignal();
    }
  }

  /** Stops taking tasks; the queued ones still run, then the workers and the watchdog end. */
  public void shutdown() {
    shutdown = true;
    for (Worker worker : workers) {
      LockSupport.unpark(worker.thread);
    }
    Thread current = watchdog;
    if (current != null) {
      LockSupport.unpark(current);
    }
  }

  /** Threads running or waiting for tasks now (the watchdog not counted). */
  public int threads() {
    return threadCount.get();
  }

  /** Whether the pool's own watchdog thread runs now. */
  boolean watchdogRunning() {
    return watchdogRunning.get();
  }

  /** Workers the watchdog found blocked that are still running that task. */
  int blockedWorkers() {
    return blocked.get();
  }

  /**
   * Wakes a parked worker, or starts one, as a searcher, if one more awake worker would help: fewer
   * than {@code parallelism} are awake, or one is blocked (then the pool acts as a cached pool).
   */
  private void trySignal() {
    if (!reserveAwake()) {
      return;
    }
    searching.incrementAndGet();
    Worker worker;
    while ((worker = parked.pollFirst()) != null) {
      if (worker.claim()) {
        LockSupport.unpark(worker.thread);
        wakeWatchdog();
        return;
      }
    }
    if (shutdown) {
      searching.decrementAndGet();
      awake.decrementAndGet();
      return;
    }
    Worker started = new Worker();
    workers.add(started);
    threadCount.incrementAndGet();
    started.thread.start();
    wakeWatchdog();
  }

  /** Counts one more worker awake, unless enough are and none is blocked. */
  private boolean reserveAwake() {
    int now;
    do {
      now = awake.get();
      if (now >= parallelism && blocked.get() == 0) {
        return false;
      }
    } while (!awake.compareAndSet(now, now + 1));
    return true;
  }

  private void wakeWatchdog() {
    if (!ownWatchdog) {
      return;
    }
    if (!watchdogRunning.get() && watchdogRunning.compareAndSet(false, true)) {
      Thread started = newThread(this::watch, threadPrefix + "-watchdog");
      watchdog = started;
      started.start();
    } else if (watchdogAsleep) {
      watchdogAsleep = false;
      Thread current = watchdog;
      if (current != null) {
        LockSupport.unpark(current);
      }
    }
  }

  private boolean idle() {
    return awake.get() == 0 && blocked.get() == 0;
  }

  private void watch() {
    while (!shutdown) {
      if (!idle()) {
        LockSupport.parkNanos(this, tickNanos);
        tick();
        continue;
      }
      watchdogAsleep = true;
      // A signal after this re-check sees the flag and unparks.
      if (idle() && !shutdown) {
        long since = System.nanoTime();
        LockSupport.parkNanos(this, keepAliveNanos);
        if (watchdogAsleep && idle() && System.nanoTime() - since >= keepAliveNanos) {
          // Idle for the keep-alive, as the workers end: so does the watchdog, unless work came just now.
          watchdogRunning.set(false);
          if (idle() || !watchdogRunning.compareAndSet(false, true)) {
            return;
          }
        }
      }
      watchdogAsleep = false;
    }
  }

  /**
   * One look at the workers: those that have run the same task since the last look are blocked; if
   * tasks wait and the pool wants a worker, one is signalled (it signals the next as it takes one).
   */
  void tick() {
    for (Worker worker : workers) {
      worker.checkBlocked(this);
    }
    if (!queue.isEmpty() && searching.get() == 0) {
      trySignal();
    }
  }

  private Thread newThread(Runnable body, String name) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }

  private final class Worker implements Runnable {
    final Thread thread = newThread(this, threadPrefix + "-" + threadNumbers.incrementAndGet());
    /** True from parking until someone claims the wake-up (a signaller, or the worker itself). */
    final AtomicBoolean sleeping = new AtomicBoolean();
    /** RUNNING, IDLE or BLOCKED; BLOCKED is set only by the watchdog, over RUNNING. */
    final AtomicInteger state = new AtomicInteger(IDLE);
    /** Tasks started; written by this worker only. */
    volatile long started;
    /** The watchdog's last reading of {@link #started}, while running. */
    long seen = -1;

    boolean claim() {
      return sleeping.compareAndSet(true, false);
    }

    @Override
    public void run() {
      boolean isSearching = true;
      try {
        while (true) {
          Runnable task = queue.poll();
          if (task != null) {
            if (isSearching) {
              isSearching = false;
              // The last searcher to find work passes the search on, so a burst spreads over the cores.
              if (searching.decrementAndGet() == 0 && !queue.isEmpty()) {
                trySignal();
              }
            }
            runTask(task);
            continue;
          }
          if (isSearching) {
            isSearching = false;
            searching.decrementAndGet();
          }
          // Listed as parked before counted as asleep, so whoever sees one worker fewer awake finds it.
          sleeping.set(true);
          parked.addFirst(this);
          awake.decrementAndGet();
          if (shutdown && claim()) {
            parked.removeFirstOccurrence(this);
            return;
          }
          // A task queued before this worker was listed may have found no one to wake: take it
          // ourselves, if the pool wants one more awake (else those awake will).
          if (!queue.isEmpty() && reserveAwake()) {
            if (claim()) {
              parked.removeFirstOccurrence(this);
              continue;
            }
            // A signaller claimed this worker first, and counted it awake.
            awake.decrementAndGet();
          }
          if (!sleep()) {
            return;
          }
          isSearching = true;
        }
      } finally {
        workers.remove(this);
        threadCount.decrementAndGet();
      }
    }

    /** Parks until claimed; false when the keep-alive ran out or the pool shut down unclaimed. */
    private boolean sleep() {
      long deadline = System.nanoTime() + keepAliveNanos;
      while (true) {
        LockSupport.parkNanos(WorkerPool.this, deadline - System.nanoTime());
        if (!sleeping.get()) {
          return true;
        }
        if ((shutdown || System.nanoTime() - deadline >= 0) && claim()) {
          parked.removeFirstOccurrence(this);
          return false;
        }
      }
    }

    private void runTask(Runnable task) {
      started = started + 1;
      // Ordered after the count by the volatile write above; the watchdog may see it a moment late.
      state.lazySet(RUNNING);
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        log.error("A service task threw; the pool goes on", e);
      } finally {
        if (!state.compareAndSet(RUNNING, IDLE)) {
          state.set(IDLE);
          awake.incrementAndGet();
          blocked.decrementAndGet();
        }
      }
    }

    /** Called by the watchdog only. */
    void checkBlocked(WorkerPool pool) {
      long now = started;
      if (state.get() == RUNNING && now == seen && state.compareAndSet(RUNNING, BLOCKED)) {
        pool.blocked.incrementAndGet();
        pool.awake.decrementAndGet();
      }
      seen = now;
    }
  }
}
