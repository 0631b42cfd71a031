package io.triplerpc.registry;

/** How a consumer picks one of a service's instances for each call. */
public enum LoadBalancing {
  /** Each instance in turn, ignoring weights. */
  ROUND_ROBIN,
  /** At random, in proportion to the instances' weights (the default). */
  WEIGHTED_RANDOM,
  /**
   * The instance with the fewest calls in flight from this consumer. Looks at every instance per
   * call: for services with thousands of instances prefer {@link #POWER_OF_TWO_CHOICES}.
   */
  LEAST_ACTIVE,
  /** Two instances at random, then the one with fewer calls in flight: near least-active, in O(1). */
  POWER_OF_TWO_CHOICES
}
