package io.triplerpc.registry.internal;

import java.util.Map;

/**
 * What the dynamic configuration in force overrides of one service's instances, worked out by
 * {@link Configurators#compute} for one rule generation and one state of the instances, and read by the
 * calls: a call looks its instance up in an identity map, allocating nothing.
 */
final class Overrides {

  /**
   * What the rules override of one instance.
   *
   * @param weight the weight the rules give it (warm-up still applies), or -1 for the registry's
   * @param disabled whether it takes no calls
   * @param timeoutNanos the deadline of calls there that bring none, or 0 for none
   */
  record Change(int weight, boolean disabled, long timeoutNanos) {}

  /** The marker {@link #weight} gives for an instance the rules do not reweigh: the registry's weight counts. */
  static final int REGISTRY_WEIGHT = -1;
  /** The marker {@link #weight} gives for an instance the rules disable. */
  static final int DISABLED = -2;

  final long generation;
  /** The instances' groups these were worked out from. */
  private final GroupsSeen seen;
  /** The instances of those groups when these were worked out. */
  final Endpoint[] endpoints;
  /** The failover retries the rules set, or -1 for the consumer's own. */
  final int retries;
  /** Only the instances something is overridden of; read-only once published. */
  private final Map<Endpoint, Change> byEndpoint;
  /** Whether some instance is reweighed or disabled: picks then go through {@link #weight}. */
  final boolean reweighs;
  private final long warmupMillis;
  /** The wall-clock time (epoch ms) the overridden weights were warmed for. */
  private final long computedAtMillis;
  /** When the overridden weights must be warmed again (epoch ms); {@link Long#MAX_VALUE} if none warms. */
  final long expiresAtMillis;

  Overrides(long generation, GroupsSeen seen, Endpoint[] endpoints, int retries,
      Map<Endpoint, Change> byEndpoint, long warmupMillis, long computedAtMillis, long expiresAtMillis) {
    this.generation = generation;
    this.seen = seen;
    this.endpoints = endpoints;
    this.retries = retries;
    this.byEndpoint = byEndpoint;
    boolean reweighs = false;
    for (Change o : byEndpoint.values()) {
      reweighs |= o.weight() >= 0 || o.disabled();
    }
    this.reweighs = reweighs;
    this.warmupMillis = warmupMillis;
    this.computedAtMillis = computedAtMillis;
    this.expiresAtMillis = expiresAtMillis;
  }

  /** Whether nothing is overridden. */
  boolean isEmpty() {
    return retries < 0 && byEndpoint.isEmpty();
  }

  /** Whether these overrides were worked out from the rules of {@code generation} and the instances in {@code current}. */
  boolean isCurrent(long currentGeneration, RevisionGroup[] current) {
    return currentGeneration == generation && seen.isCurrent(current);
  }

  /**
   * {@code e}'s weight under the rules: the overridden weight warmed up from the instance's start time (as
   * Dubbo warms an overridden weight), {@link #REGISTRY_WEIGHT} if not overridden, or {@link #DISABLED}.
   */
  int weight(Endpoint e) {
    Change o = byEndpoint.get(e);
    if (o == null) {
      return REGISTRY_WEIGHT;
    }
    if (o.disabled()) {
      return DISABLED;
    }
    return o.weight() < 0 ? REGISTRY_WEIGHT
        : Warmup.weight(o.weight(), e.startTimeMillis(), warmupMillis, computedAtMillis);
  }

  /** Whether {@code e} takes no calls under the rules. */
  boolean isDisabled(Endpoint e) {
    Change o = byEndpoint.get(e);
    return o != null && o.disabled();
  }

  /** The deadline the rules give calls to {@code e} that bring none, or 0. */
  long timeoutNanos(Endpoint e) {
    Change o = byEndpoint.get(e);
    return o == null ? 0 : o.timeoutNanos();
  }

  @Override
  public String toString() {
    return "Overrides{generation " + generation + ", retries " + retries + ", " + byEndpoint + '}';
  }
}
