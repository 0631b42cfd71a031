package io.triplerpc.registry;

import java.util.Objects;

/**
 * One change to an application's instances, as a registry pushes it.
 *
 * @param kind what happened
 * @param instance the instance as it is now ({@link Kind#REMOVED}: as it was)
 */
public record InstanceChange(Kind kind, ServiceInstance instance) {

  public InstanceChange {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(instance, "instance");
  }

  /** What happened to an instance. */
  public enum Kind {
    /** A new instance registered. */
    ADDED,
    /** A known instance changed its weight, revision or ports. */
    UPDATED,
    /** An instance unregistered, or its session or lease expired. */
    REMOVED
  }

  /** An instance registered. */
  public static InstanceChange added(ServiceInstance instance) {
    return new InstanceChange(Kind.ADDED, instance);
  }

  /** An instance changed. */
  public static InstanceChange updated(ServiceInstance instance) {
    return new InstanceChange(Kind.UPDATED, instance);
  }

  /** An instance went away. */
  public static InstanceChange removed(ServiceInstance instance) {
    return new InstanceChange(Kind.REMOVED, instance);
  }
}
