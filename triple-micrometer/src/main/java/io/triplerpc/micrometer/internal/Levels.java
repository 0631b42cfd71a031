package io.triplerpc.micrometer.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Levels (a number set from time to time, not counted), as gauges. A registry keeps one gauge per name
 * and tags, so every observer of that registry with those tags sets the one value that gauge reads (the
 * latest setting wins), as {@link InFlight} does for counts; a registry's values go with it.
 */
final class Levels {

  /** By registry (weakly: its values do not keep it), then by name and tags. Guarded by itself. */
  private static final Map<MeterRegistry, Map<String, AtomicLong>> VALUES = new WeakHashMap<>();

  private Levels() {}

  /** The value of the gauge {@code name} with {@code tags} in {@code registry}, registered if new. */
  static AtomicLong of(MeterRegistry registry, String name, String description, Tags tags) {
    synchronized (VALUES) {
      Map<String, AtomicLong> values = VALUES.computeIfAbsent(registry, r -> new HashMap<>());
      return values.computeIfAbsent(name + tags, key -> {
        AtomicLong value = new AtomicLong();
        Gauge.builder(name, value, AtomicLong::get)
            .description(description)
            .tags(tags)
            .strongReference(true)
            .register(registry);
        return value;
      });
    }
  }
}
