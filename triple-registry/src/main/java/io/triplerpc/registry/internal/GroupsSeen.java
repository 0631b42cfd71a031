package io.triplerpc.registry.internal;

/**
 * The groups of instances a cached result was worked out from, with each group's change count read before its
 * instances, so that a change made meanwhile leaves the result stale rather than wrong. What the caches of routed
 * lists, overrides and condition routes share.
 */
final class GroupsSeen {

  final RevisionGroup[] groups;
  private final int[] changes;

  GroupsSeen(RevisionGroup[] groups) {
    this.groups = groups;
    this.changes = new int[groups.length];
    for (int i = 0; i < groups.length; i++) {
      changes[i] = groups[i].changes();
    }
  }

  /** Whether {@code current} are these groups, none of them changed since. Allocates nothing. */
  boolean isCurrent(RevisionGroup[] current) {
    if (current != groups) {
      return false;
    }
    for (int i = 0; i < groups.length; i++) {
      if (groups[i].changes() != changes[i]) {
        return false;
      }
    }
    return true;
  }
}
