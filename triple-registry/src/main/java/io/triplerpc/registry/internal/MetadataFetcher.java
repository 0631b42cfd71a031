package io.triplerpc.registry.internal;

import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches the metadata of an application's revisions for its {@link ApplicationDirectory}: a few
 * quick attempts, after which the directory counts as ready without it, then one attempt every
 * {@link #RETRY_SECONDS} s for as long as instances name the revision (metadata published late
 * still brings them in).
 *
 * <p>Answers are handled on the directory's scheduler, not on the registry's threads, and with the
 * directory's lock held, as its own changes are.
 */
final class MetadataFetcher {

  /** Logs as the directory it fetches for: one logger tells an application's story. */
  private static final Logger log = LoggerFactory.getLogger(ApplicationDirectory.class);
  static final int ATTEMPTS = 5;
  static final long RETRY_SECONDS = 5;

  /** Where the answers land; each method is called with the directory's lock held. */
  interface Target {

    /** Whether {@code group} is still its revision's group: its instances have not all left. */
    boolean current(RevisionGroup group);

    /** The metadata of {@code group}'s revision arrived. */
    void found(RevisionGroup group, MetadataInfo info);

    /** {@code group}'s quick attempts are over, found or not: readiness no longer waits for it. */
    void settled(RevisionGroup group);
  }

  private final String application;
  private final Registry registry;
  private final Object lock;
  private final Scheduling scheduling;
  private final Target target;

  /** Fetches {@code application}'s metadata from {@code registry} for {@code target}, guarded by {@code lock}. */
  MetadataFetcher(String application, Registry registry, Object lock, Scheduling scheduling, Target target) {
    this.application = application;
    this.registry = registry;
    this.lock = lock;
    this.scheduling = scheduling;
    this.target = target;
  }

  /** Starts fetching the metadata of {@code group}'s revision; the target hears {@code settled} once. */
  void fetch(RevisionGroup group) {
    fetch(group, 1);
  }

  private void fetch(RevisionGroup group, int attempt) {
    Completions.whenDone(registry.metadata(application, group.revision), (info, failure) -> {
      synchronized (lock) {
        // Past the quick attempts, the directory already counts as ready without this revision.
        boolean stillPending = attempt <= ATTEMPTS;
        if (failure == null) {
          target.found(group, info);
        } else if (!target.current(group)) {
          // Its instances left meanwhile; nothing waits for this metadata any more.
        } else if (attempt < ATTEMPTS) {
          log.warn("{}: metadata of revision {} not available yet ({}); retrying", application, group.revision,
              failure.toString());
          scheduling.schedule(() -> fetch(group, attempt + 1), 100L << attempt, TimeUnit.MILLISECONDS);
          return;
        } else {
          if (attempt == ATTEMPTS) {
            log.warn("{}: no metadata for revision {} after {} attempts; its {} instances are not called until it"
                + " appears: {}", application, group.revision, attempt, group.size(), failure.toString());
          }
          scheduling.schedule(() -> fetch(group, attempt + 1), RETRY_SECONDS, TimeUnit.SECONDS);
        }
        if (stillPending) {
          target.settled(group);
        }
      }
    }, task -> scheduling.schedule(task, 0, TimeUnit.NANOSECONDS));
  }
}
