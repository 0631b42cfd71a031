package io.triplerpc.registry.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Rewrites one application's snapshot file a while after its {@link ApplicationDirectory} changes:
 * one write for a burst of changes, made on the directory's scheduler rather than on the registry's
 * notifying thread, and without the directory's lock (only the state is taken under it).
 */
final class SnapshotWriter {

  private final Snapshots snapshots;
  private final String application;
  private final Object lock;
  private final Supplier<Snapshots.Application> state;
  private final Scheduling scheduling;
  private final long delayNanos;
  private final Runnable write = this::write;
  /** Whether a write is scheduled. Guarded by {@link #lock}. */
  private boolean scheduled;

  /**
   * Writes {@code application}'s {@code state}, which is taken with {@code lock} held, to
   * {@code snapshots} {@code delayNanos} after a change.
   */
  SnapshotWriter(Snapshots snapshots, String application, Object lock, Supplier<Snapshots.Application> state,
      Scheduling scheduling, long delayNanos) {
    this.snapshots = snapshots;
    this.application = application;
    this.lock = lock;
    this.state = state;
    this.scheduling = scheduling;
    this.delayNanos = delayNanos;
  }

  /** The state changed: schedules a write, unless one is pending. Lock held. */
  void changed() {
    if (scheduled) {
      return;
    }
    scheduled = true;
    scheduling.schedule(write, delayNanos, TimeUnit.NANOSECONDS);
  }

  /** Writes the snapshot now if a write is pending (the cluster is closing). */
  void flush() {
    boolean pendingWrite;
    synchronized (lock) {
      pendingWrite = scheduled;
    }
    if (pendingWrite) {
      write();
    }
  }

  private void write() {
    Snapshots.Application current;
    synchronized (lock) {
      scheduled = false;
      current = state.get();
    }
    snapshots.write(application, current.instances(), current.metadata());
  }
}
