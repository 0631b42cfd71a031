package io.triplerpc.registry.internal;

/**
 * A new instance's share while it warms up: its weight ramps from 1 to full over the warm-up window from
 * its start time, by Dubbo's formula ({@code AbstractLoadBalance.calculateWarmupWeight}: {@code
 * uptime / (warmup / weight)}, at least 1, at most the weight), so that Triple and Dubbo consumers of one
 * estate give a starting instance the same share. An instance whose start time lies ahead (the clocks of
 * two machines disagree) weighs 1, as in Dubbo; an instance of weight 0, or with no start time, does not
 * warm up.
 */
final class Warmup {

  /** Dubbo's default warm-up window: 10 minutes. */
  static final long DEFAULT_MILLIS = 10 * 60 * 1000L;

  private Warmup() {}

  /** The weight of an instance of {@code weight} started at {@code startTimeMillis}, at {@code nowMillis}. */
  static int weight(int weight, long startTimeMillis, long warmupMillis, long nowMillis) {
    if (weight <= 0 || startTimeMillis <= 0 || warmupMillis <= 0) {
      return weight;
    }
    long uptime = nowMillis - startTimeMillis;
    if (uptime < 0) {
      return 1;
    }
    if (uptime == 0 || uptime >= warmupMillis) {
      return weight; // Dubbo ramps only for 0 < uptime < warmup.
    }
    int ramped = (int) (uptime / ((float) warmupMillis / weight));
    return ramped < 1 ? 1 : Math.min(ramped, weight);
  }

  /** Whether an instance started at {@code startTimeMillis} is still in its warm-up at {@code nowMillis}. */
  static boolean warming(long startTimeMillis, long warmupMillis, long nowMillis) {
    return startTimeMillis > 0 && warmupMillis > 0 && nowMillis - startTimeMillis < warmupMillis;
  }

  /** How often warming weights move: a hundredth of the window, between 100 ms and 1 s. */
  static long tickMillis(long warmupMillis) {
    return Math.max(100, Math.min(1000, warmupMillis / 100));
  }
}
