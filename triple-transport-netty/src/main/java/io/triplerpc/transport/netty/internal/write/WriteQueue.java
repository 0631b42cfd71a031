package io.triplerpc.transport.netty.internal.write;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.triplerpc.internal.Ablations;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jctools.queues.MpscUnboundedArrayQueue;

/**
 * The one write queue of a connection, shared by all its streams. Any thread enqueues without a
 * lock; the event loop drains, writing each command into the pipeline and flushing once every
 * {@code FLUSH_EVERY} (128) commands and once at the end, so frames of many streams leave in one syscall.
 *
 * <p>Commands wait, in order, until the connection is {@linkplain #markReady() ready} (HTTP/2
 * preface sent), or are failed once it has {@linkplain #markFailed failed}.
 *
 * <p>Commands are failed on the event loop, or, once the event loop has shut down and refuses the
 * drain, on Netty's global executor after the loop has terminated: never on the thread that
 * enqueued, so a stream's callbacks never run inside its caller, and never while the loop may still
 * touch the streams it owns.
 */
public final class WriteQueue {

  /** Commands written between two flushes at most. */
  public static final int FLUSH_EVERY = Ablations.FLUSH_PER_COMMAND ? 1 : 128;

  private final Channel channel;
  private final MpscUnboundedArrayQueue<QueuedCommand> queue = new MpscUnboundedArrayQueue<>(256);
  /**
   * True while a drain (or, after the event loop refused one, a failing) is scheduled or running: whoever
   * sets it is the queue's one consumer until it clears it.
   */
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final Runnable drainTask = this::drain;

  /** Whether commands may be written: the connection is up and its preface sent. */
  private volatile boolean ready;
  /** Why the connection is gone, or null while it may still carry commands. */
  private volatile Throwable failure;

  // Written only by the event loop; read by anyone (statistics, approximately current).
  private volatile long commandsWritten;
  private volatile long flushes;

  public WriteQueue(Channel channel) {
    this.channel = channel;
  }

  /** Queues {@code command}; with {@code flush}, makes sure a drain runs soon. Never blocks. */
  public void enqueue(QueuedCommand command, boolean flush) {
    queue.offer(command);
    if (flush) {
      scheduleDrain();
    }
  }

  /** Makes sure a drain runs soon on the event loop. */
  public void scheduleDrain() {
    if (scheduled.compareAndSet(false, true)) {
      EventLoop loop = channel.eventLoop();
      try {
        loop.execute(drainTask);
      } catch (RejectedExecutionException refused) {
        // The loop is shutting down (our loops' task queues are unbounded, so nothing else refuses) and
        // will never drain again, but its last tasks may still touch the streams it owns. Keep the queue
        // marked scheduled, so no one else polls it, and fail what waits once the loop has terminated.
        loop.terminationFuture().addListener(
            terminated -> GlobalEventExecutor.INSTANCE.execute(() -> failRefused(refused)));
      }
    }
  }

  /** Fails what waits after the event loop refused to drain and terminated. Netty's global executor. */
  private void failRefused(RejectedExecutionException refused) {
    Throwable failed = failure;
    failAll(failed != null ? failed : refused);
    scheduled.set(false);
    // A command may have been queued after the last poll and before scheduled was cleared.
    if (!queue.isEmpty()) {
      scheduleDrain();
    }
  }

  /**
   * Writes what waits now, on the event loop that calls it, rather than in a task: for an answer made
   * while a read is handled, which must reach the connection before the next frame of that read does.
   */
  public void drainNow() {
    if (!queue.isEmpty()) {
      drain();
    }
  }

  /** The connection is up: write what waits. Called on the event loop. */
  public void markReady() {
    ready = true;
    scheduleDrain();
  }

  /** The connection is gone: fail what waits and what comes. */
  public void markFailed(Throwable cause) {
    if (failure == null) {
      failure = cause;
    }
    scheduleDrain();
  }

  /** Commands written since the connection opened. */
  public long commandsWritten() {
    return commandsWritten;
  }

  /** Flushes since the connection opened. */
  public long flushes() {
    return flushes;
  }

  private void drain() {
    Throwable failed = failure;
    if (failed != null) {
      scheduled.set(false);
      failAll(failed);
      return;
    }
    if (!ready) {
      // markReady() schedules the drain again.
      scheduled.set(false);
      if (ready && !queue.isEmpty()) {
        scheduleDrain();
      }
      return;
    }
    long written = 0;
    long flushed = 0;
    int sinceFlush = 0;
    try {
      QueuedCommand command;
      while ((command = queue.poll()) != null) {
        command.promise(channel.newPromise());
        channel.write(command, command.promise());
        written++;
        if (++sinceFlush == FLUSH_EVERY) {
          channel.flush();
          flushed++;
          sinceFlush = 0;
        }
      }
      if (sinceFlush > 0) {
        channel.flush();
        flushed++;
      }
    } finally {
      commandsWritten += written;
      flushes += flushed;
      scheduled.set(false);
    }
    // A command may have been queued after the last poll and before scheduled was cleared.
    if (!queue.isEmpty()) {
      scheduleDrain();
    }
  }

  private void failAll(Throwable cause) {
    QueuedCommand command;
    while ((command = queue.poll()) != null) {
      command.fail(cause);
    }
  }
}
