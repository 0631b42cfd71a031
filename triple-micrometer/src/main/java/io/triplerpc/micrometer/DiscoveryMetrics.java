package io.triplerpc.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.triplerpc.micrometer.internal.DiscoveryMeters;
import io.triplerpc.registry.DiscoveryObserver;

/**
 * Micrometer metrics of a client's service discovery ({@code triple-registry}): the gauge
 * {@code triple.registry.instances}, the instances each export called is spread over, tagged
 * {@code triple.service}, {@code triple.service.version} and {@code triple.service.group}; and the timer
 * {@code triple.registry.push.lag}, from the client receiving a push of an application's instances to its
 * calls using them, a new revision's metadata fetch included, tagged {@code triple.application}.
 *
 * <pre>{@code
 * TripleClient client = TripleClient.builder()
 *     .cluster(Discovery.using(registry).observer(DiscoveryMetrics.observer(meterRegistry)).build())
 *     .callObserver(TripleMetrics.client(meterRegistry))
 *     .build();
 * }</pre>
 *
 * <p>Apart from {@link TripleMetrics} because this module depends on {@code triple-registry} optionally:
 * only this class needs it on the class path. Clients built with one discovery, or with observers of one
 * registry with the same tags, report to the same gauges (the latest report wins); give each its own
 * tags to tell them apart. docs/observability.md lists the meters.
 */
public final class DiscoveryMetrics {

  private DiscoveryMetrics() {}

  /** An observer recording discovery in {@code registry}, for {@code Discovery.Builder.observer}. */
  public static DiscoveryObserver observer(MeterRegistry registry) {
    return observer(registry, Tags.empty());
  }

  /** An observer recording discovery in {@code registry}, each meter tagged with {@code tags} too. */
  public static DiscoveryObserver observer(MeterRegistry registry, Iterable<Tag> tags) {
    return new DiscoveryMeters(requireNonNull(registry, "registry"), Tags.of(requireNonNull(tags, "tags")));
  }
}
