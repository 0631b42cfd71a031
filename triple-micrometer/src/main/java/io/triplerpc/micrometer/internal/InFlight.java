package io.triplerpc.micrometer.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Calls in flight, as a gauge. A registry keeps one gauge per name and tags, so every observer of that
 * registry with those tags (two servers in one process, say) counts into the one count that gauge reads;
 * a registry's counts go with it.
 */
final class InFlight {

  /** By registry (weakly: its counts do not keep it), then by name and tags. Guarded by itself. */
  private static final Map<MeterRegistry, Map<String, LongAdder>> COUNTS = new WeakHashMap<>();

  private InFlight() {}

  /** The count of the gauge {@code name} with {@code tags} in {@code registry}, registered if new. */
  static LongAdder count(MeterRegistry registry, String name, String description, Tags tags) {
    synchronized (COUNTS) {
      Map<String, LongAdder> counts = COUNTS.computeIfAbsent(registry, r -> new HashMap<>());
      return counts.computeIfAbsent(name + tags, key -> {
        LongAdder count = new LongAdder();
        Gauge.builder(name, count, LongAdder::sum)
            .description(description)
            .tags(tags)
            .strongReference(true)
            .register(registry);
        return count;
      });
    }
  }
}
