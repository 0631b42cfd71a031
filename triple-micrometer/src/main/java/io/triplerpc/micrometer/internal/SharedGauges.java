package io.triplerpc.micrometer.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Values read by gauges. A registry keeps one gauge per name and tags, so every observer of that registry
 * with those tags (two servers in one process, say) updates the one value that gauge reads; a registry's
 * values go with it.
 *
 * @param <T> the value a gauge reads
 */
final class SharedGauges<T> {

  /** Calls in flight: every observer counts into the one count. */
  static final SharedGauges<LongAdder> IN_FLIGHT = new SharedGauges<>(LongAdder::new, LongAdder::sum);
  /** Levels (a number set from time to time, not counted): the latest setting wins. */
  static final SharedGauges<AtomicLong> LEVELS = new SharedGauges<>(AtomicLong::new, AtomicLong::get);

  /** By registry (weakly: its values do not keep it), then by name and tags. Guarded by itself. */
  private final Map<MeterRegistry, Map<String, T>> values = new WeakHashMap<>();
  private final Supplier<T> create;
  private final ToDoubleFunction<T> read;

  private SharedGauges(Supplier<T> create, ToDoubleFunction<T> read) {
    this.create = create;
    this.read = read;
  }

  /** The value of the gauge {@code name} with {@code tags} in {@code registry}, registered if new. */
  T of(MeterRegistry registry, String name, String description, Tags tags) {
    synchronized (values) {
      Map<String, T> byName = values.computeIfAbsent(registry, r -> new HashMap<>());
      return byName.computeIfAbsent(name + tags, key -> {
        T value = create.get();
        Gauge.builder(name, value, read)
            .description(description)
            .tags(tags)
            .strongReference(true)
            .register(registry);
        return value;
      });
    }
  }
}
