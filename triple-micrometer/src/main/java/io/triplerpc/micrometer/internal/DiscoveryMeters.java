package io.triplerpc.micrometer.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.triplerpc.registry.DiscoveryObserver;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A consumer's discovery as meters: each export's instances as a gauge, each application's push lag as
 * a timer. Tag values are the exports the client's code calls and the applications serving them, so the
 * series are as few as those. Thread-safe; a report allocates nothing once its meter exists.
 */
public final class DiscoveryMeters implements DiscoveryObserver {

  private final MeterRegistry registry;
  private final Tags tags;
  /** The gauges' values by export, each registered on its first report. */
  private final ConcurrentHashMap<Export, AtomicLong> instances = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Timer> lags = new ConcurrentHashMap<>();

  /** An export a client calls: a service, in a version and group. */
  private record Export(String service, String version, String group) {}

  /** @param tags added to every meter */
  public DiscoveryMeters(MeterRegistry registry, Tags tags) {
    this.registry = registry;
    this.tags = tags;
  }

  @Override
  public void instancesChanged(String service, String version, String group, int count) {
    Export export = new Export(service, version, group);
    AtomicLong value = instances.get(export);
    if (value == null) {
      value = instances.computeIfAbsent(export, e -> SharedGauges.LEVELS.of(registry, MeterNames.REGISTRY_INSTANCES,
          "Instances a client's calls to the service are spread over, as discovery found them",
          tags.and(MeterNames.SERVICE, e.service())
              .and(MeterNames.SERVICE_VERSION, e.version())
              .and(MeterNames.SERVICE_GROUP, e.group())));
    }
    value.set(count);
  }

  @Override
  public void pushApplied(String application, long lagNanos) {
    Timer lag = lags.get(application);
    if (lag == null) {
      lag = lags.computeIfAbsent(application, a -> Timer.builder(MeterNames.REGISTRY_PUSH_LAG)
          .description("Time from a client receiving a push of the application's instances to calls using them,"
              + " a new revision's metadata fetch included")
          .tags(tags.and(MeterNames.APPLICATION, a))
          .serviceLevelObjectives(MeterNames.LATENCY_BUCKETS)
          .register(registry));
    }
    lag.record(lagNanos, TimeUnit.NANOSECONDS);
  }
}
