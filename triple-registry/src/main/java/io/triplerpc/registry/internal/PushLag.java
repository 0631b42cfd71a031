package io.triplerpc.registry.internal;

import io.triplerpc.registry.DiscoveryObserver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Times one {@link ApplicationDirectory}'s pushes for its {@link DiscoveryObserver}: from a push's
 * delivery to the moment its instances are in use, that is applied (after the coalescing window, if
 * one was open) and the metadata of their revisions in, or given up on. Without an observer it does
 * nothing, and reads no clock.
 *
 * <p>Every method but {@link #now} and {@link #report} is called with the directory's lock held;
 * {@link #report} is called without it, so that the observer never holds up the directory.
 */
final class PushLag {

  private final String application;
  /** Null when no one observes. */
  private final DiscoveryObserver observer;
  private final LongSupplier clock;

  /** The pushes whose changes are being applied, while they are; else null. */
  private Pushes applying;
  /** Pushes received while the window is open, to apply when it closes; null when none. */
  private Pushes collected;
  /** Revisions whose metadata is being fetched, each with the pushes whose instances wait for it. */
  private final Map<RevisionGroup, List<Pushes>> awaitingMetadata = new HashMap<>();
  /** Pushes whose instances are all in use, not reported yet. */
  private List<Pushes> inUse = new ArrayList<>();

  PushLag(String application, DiscoveryObserver observer, LongSupplier clock) {
    this.application = application;
    this.observer = observer;
    this.clock = clock;
  }

  /** The time a push arrives; 0 when no one observes. */
  long now() {
    return observer == null ? 0 : clock.getAsLong();
  }

  /** A push received at {@code receivedNanos} while the window is open waits for it to close. */
  void collect(long receivedNanos) {
    if (observer != null) {
      collected = Pushes.with(collected, receivedNanos);
    }
  }

  /**
   * The push received at {@code receivedNanos} is being applied, and with it those collected (a resync
   * brings what they would have).
   */
  void applying(long receivedNanos) {
    if (observer != null) {
      applying = Pushes.with(collected, receivedNanos);
      collected = null;
    }
  }

  /** The pushes collected while the window was open are being applied. */
  void applyingCollected() {
    applying = collected;
    collected = null;
  }

  /** {@code group}'s metadata is being fetched: instances added to it wait for it. */
  void fetching(RevisionGroup group) {
    if (observer != null) {
      awaitingMetadata.put(group, new ArrayList<>(1));
    }
  }

  /** An instance of the pushes being applied is in {@code group}: they are in use once its metadata is. */
  void placedIn(RevisionGroup group) {
    if (applying == null || awaitingMetadata.isEmpty()) {
      return;
    }
    List<Pushes> waiting = awaitingMetadata.get(group);
    // During an apply only the pushes being applied join a list: the last one tells if they did.
    if (waiting != null && (waiting.isEmpty() || waiting.get(waiting.size() - 1) != applying)) {
      waiting.add(applying);
      applying.awaitedRevisions++;
    }
  }

  /** The pushes being applied are applied: in use now, unless a revision of theirs waits for metadata. */
  void applied() {
    Pushes pushes = applying;
    applying = null;
    if (pushes != null && pushes.awaitedRevisions == 0) {
      pushes.inUseNanos = clock.getAsLong();
      inUse.add(pushes);
    }
  }

  /**
   * {@code group}'s metadata arrived or was given up on: the pushes that waited only for it are in use
   * now. Whether any was.
   */
  boolean settled(RevisionGroup group) {
    List<Pushes> waiting = awaitingMetadata.remove(group);
    if (waiting == null || waiting.isEmpty()) {
      return false;
    }
    long now = clock.getAsLong();
    boolean any = false;
    for (Pushes pushes : waiting) {
      if (--pushes.awaitedRevisions == 0) {
        pushes.inUseNanos = now;
        inUse.add(pushes);
        any = true;
      }
    }
    return any;
  }

  /** The pushes in use and not reported yet, for {@link #report}; null if none. */
  List<Pushes> takeInUse() {
    if (inUse.isEmpty()) {
      return null;
    }
    List<Pushes> done = inUse;
    inUse = new ArrayList<>();
    return done;
  }

  /** Tells the observer the lag of each push in {@code done} (null for none). Without the directory's lock. */
  void report(List<Pushes> done) {
    if (done == null) {
      return;
    }
    for (Pushes pushes : done) {
      for (int i = 0; i < pushes.count; i++) {
        observer.pushApplied(application, pushes.inUseNanos - pushes.receivedNanos[i]);
      }
    }
  }

  /**
   * Pushes applied together (one, or those a coalescing window collected): when each arrived, and how
   * many revisions of their instances still wait for metadata.
   */
  static final class Pushes {

    /** Arrival times, {@link #count} of them. */
    private long[] receivedNanos = new long[1];
    private int count;
    /** Revisions of these pushes' instances whose metadata is still being fetched; in use at 0. */
    private int awaitedRevisions;
    /** When the list these pushes made came into use. */
    private long inUseNanos;

    /** {@code earlier} (a new one if null) with one more push, received at {@code receivedNanos}. */
    static Pushes with(Pushes earlier, long receivedNanos) {
      Pushes pushes = earlier != null ? earlier : new Pushes();
      if (pushes.count == pushes.receivedNanos.length) {
        pushes.receivedNanos = Arrays.copyOf(pushes.receivedNanos, pushes.count * 2);
      }
      pushes.receivedNanos[pushes.count++] = receivedNanos;
      return pushes;
    }
  }
}
