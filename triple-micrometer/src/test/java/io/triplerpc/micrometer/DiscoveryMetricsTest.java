package io.triplerpc.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Discovery's meters, read back from a real {@link SimpleMeterRegistry} while instances of an
 * {@link InProcessRegistry} come and go: the instances gauge of each export, the push lag timer of each
 * application, and their names in a Prometheus scrape. The consumers make no call, so instances are
 * registered at ports no one listens on.
 */
class DiscoveryMetricsTest {

  private static final String SERVICE = "triple.metrics.test.PingService";
  private static final String APP = "ping-app";

  private final MeterRegistry meters = new SimpleMeterRegistry();
  private final InProcessRegistry registry = new InProcessRegistry();
  private final List<TripleClient> clients = new ArrayList<>();

  @AfterEach
  void stop() {
    clients.forEach(TripleClient::close);
    registry.close();
  }

  /** Publishes the metadata of {@code application} serving PingService's {@code version}, and maps the service to it. */
  private MetadataInfo serving(String application, String version) {
    MetadataInfo metadata = MetadataInfo.of(application,
        List.of(new ServerInfo.Service(SERVICE, List.of("ping"), "proto", version, "")));
    registry.publishMetadata(metadata).join();
    registry.map(SERVICE, application).join();
    return metadata;
  }

  private static ServiceInstance instance(int port, MetadataInfo metadata) {
    return ServiceInstance.of(metadata.application(), "127.0.0.1", port, metadata.revision());
  }

  /** A client discovering PingService's {@code version} with {@code observer}; each change applies on its own. */
  private void consumer(DiscoveryObserver observer, String version) {
    TripleClient client = TripleClient.builder()
        .cluster(Discovery.using(registry).observer(observer).coalesceWindow(Duration.ZERO).build())
        .build();
    clients.add(client);
    client.proxy(PingService.class, CallOptions.DEFAULT.withServiceVersion(version));
  }

  private double instances(String version) {
    return meters.get("triple.registry.instances")
        .tags("triple.service", SERVICE, "triple.service.version", version, "triple.service.group", "")
        .gauge().value();
  }

  private Timer lag(String application) {
    return meters.get("triple.registry.push.lag").tag("triple.application", application).timer();
  }

  @Test
  void theInstancesGaugeFollowsInstancesAsTheyComeAndGo() throws Exception {
    MetadataInfo metadata = serving(APP, "");
    Reports reports = new Reports(DiscoveryMetrics.observer(meters));
    consumer(reports, "");
    reports.awaitSize(0);
    assertEquals(0, instances(""), "there as soon as the client names the service");

    registry.register(instance(1, metadata)).join();
    reports.awaitSize(1);
    assertEquals(1, instances(""));
    registry.register(instance(2, metadata)).join();
    reports.awaitSize(2);
    assertEquals(2, instances(""));
    registry.unregister(instance(1, metadata)).join();
    reports.awaitSize(1);
    assertEquals(1, instances(""));
    registry.unregister(instance(2, metadata)).join();
    reports.awaitSize(0);
    assertEquals(0, instances(""));
  }

  @Test
  void theLagTimerCountsEveryPushOfEachApplication() throws Exception {
    MetadataInfo pings = serving(APP, "");
    MetadataInfo others = serving("other-app", "");
    Reports reports = new Reports(DiscoveryMetrics.observer(meters));
    consumer(reports, "");
    reports.awaitPushes(2);
    assertEquals(1, lag(APP).count(), "the first list");
    assertEquals(1, lag("other-app").count(), "the first list");

    registry.register(instance(1, pings)).join();
    registry.register(instance(2, pings)).join();
    registry.register(instance(3, others)).join();
    registry.update(instance(1, pings).withWeight(50)).join();
    reports.awaitPushes(6);
    assertEquals(4, lag(APP).count(), "the first list, two instances and a new weight");
    assertEquals(2, lag("other-app").count(), "the first list and an instance");
    assertTrue(lag(APP).totalTime(TimeUnit.NANOSECONDS) >= 0);
    reports.awaitSize(3);
    assertEquals(3, instances(""), "the instances of both applications");
  }

  @Test
  void aScrapeShowsTheDiscoveryMetersWithTheirTags() throws Exception {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MetadataInfo metadata = serving(APP, "1.0.0");
    Reports reports = new Reports(DiscoveryMetrics.observer(prometheus, Tags.of("client", "a")));
    consumer(reports, "1.0.0");
    reports.awaitSize(0);
    registry.register(instance(1, metadata)).join();
    reports.awaitSize(1);
    reports.awaitPushes(2);

    String scrape = prometheus.scrape();
    for (String expected : List.of(
        "triple_registry_instances{client=\"a\",triple_service=\"" + SERVICE + "\",triple_service_group=\"\","
            + "triple_service_version=\"1.0.0\"} 1",
        "triple_registry_push_lag_seconds_count{client=\"a\",triple_application=\"" + APP + "\"} 2",
        "triple_registry_push_lag_seconds_bucket{client=\"a\",triple_application=\"" + APP + "\",le=\"100.0\"} 2")) {
      assertTrue(scrape.contains(expected), "no " + expected + " in\n" + scrape);
    }
  }

  @Test
  void observersWithTheSameTagsSetOneGauge() throws Exception {
    MetadataInfo metadata = serving(APP, "");
    Reports first = new Reports(DiscoveryMetrics.observer(meters));
    consumer(first, "");
    first.awaitSize(0);
    registry.register(instance(1, metadata)).join();
    first.awaitSize(1);
    clients.remove(0).close();

    // A later client, with a discovery and an observer of its own, reports the same export.
    Reports second = new Reports(DiscoveryMetrics.observer(meters));
    consumer(second, "");
    second.awaitSize(1);
    registry.register(instance(2, metadata)).join();
    second.awaitSize(2);
    assertEquals(2, instances(""), "the second observer set the gauge the first one registered");
  }

  /** Passes reports on to the meters, then notes them, for the test to wait until the meters have them. */
  private static final class Reports implements DiscoveryObserver {

    private final DiscoveryObserver meters;
    /** The latest size reported; -1 before the first. Guarded by this. */
    private int latestSize = -1;
    private int pushes;

    Reports(DiscoveryObserver meters) {
      this.meters = meters;
    }

    @Override
    public void instancesChanged(String service, String version, String group, int instances) {
      meters.instancesChanged(service, version, group, instances);
      synchronized (this) {
        latestSize = instances;
        notifyAll();
      }
    }

    @Override
    public void pushApplied(String application, long lagNanos) {
      meters.pushApplied(application, lagNanos);
      synchronized (this) {
        pushes++;
        notifyAll();
      }
    }

    /** Returns once the latest size reported is {@code size}. */
    synchronized void awaitSize(int size) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (latestSize != size) {
        awaitUntil(deadline, "a size of " + size + "; the latest is " + latestSize);
      }
    }

    /** Returns once {@code count} pushes were reported. */
    synchronized void awaitPushes(int count) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (pushes < count) {
        awaitUntil(deadline, count + " pushes; " + pushes + " came");
      }
    }

    private void awaitUntil(long deadline, String what) throws InterruptedException {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("Timed out waiting for " + what);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }
}
