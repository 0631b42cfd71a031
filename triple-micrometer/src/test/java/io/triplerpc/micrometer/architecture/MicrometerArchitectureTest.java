package io.triplerpc.micrometer.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.micrometer.DiscoveryMetrics;
import io.triplerpc.micrometer.TripleMetrics;
import io.triplerpc.micrometer.internal.DiscoveryMeters;
import io.triplerpc.micrometer.internal.PrometheusScrape;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of {@code triple-micrometer}: it sees calls through core's public API only, discovery
 * through the registry's, in the two classes that alone need the (optional) registry, and Prometheus in
 * the two that alone need the (optional) Prometheus registry ({@code PrometheusIsOptionalTest} loads the
 * rest without it).
 */
class MicrometerArchitectureTest {

  private static final JavaClasses METRICS = ArchitectureRules.moduleOf(TripleMetrics.class);

  @Test
  void metricsUseOnlyCoresApi() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("io.triplerpc.internal..", "io.triplerpc.transport..", "io.netty..")
        .because("metrics plug in through CallObserver and the servers' and clients' public counters")
        .check(METRICS);
  }

  @Test
  void onlyDiscoveryMetricsNeedTheRegistry() {
    noClasses().that().doNotHaveFullyQualifiedName(DiscoveryMetrics.class.getName())
        .and().doNotHaveFullyQualifiedName(DiscoveryMeters.class.getName())
        .should().dependOnClassesThat().resideInAPackage("io.triplerpc.registry..")
        .because("triple-registry is an optional dependency: TripleMetrics and the call metrics load without it")
        .check(METRICS);
  }

  @Test
  void onlyThePrometheusScrapeNeedsPrometheus() {
    noClasses().that().doNotHaveFullyQualifiedName(TripleMetrics.class.getName())
        .and().doNotHaveFullyQualifiedName(PrometheusScrape.class.getName())
        .should().dependOnClassesThat().resideInAnyPackage("io.micrometer.prometheusmetrics..", "io.prometheus..")
        .because("micrometer-registry-prometheus is an optional dependency: call metrics load without it")
        .check(METRICS);
  }

  @Test
  void discoveryMetricsUseOnlyTheRegistrysApi() {
    noClasses().should().dependOnClassesThat().resideInAPackage("io.triplerpc.registry.internal..")
        .because("discovery metrics plug in through DiscoveryObserver; the registry's internals may change at any time")
        .check(METRICS);
  }

  @Test
  void noPublicSignatureNamesAnInternalType() {
    ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc.micrometer").check(METRICS);
  }

  @Test
  void onlyTestsThatStartAnotherProcessPoll() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(getClass()).check(ArchitectureRules.moduleOf(getClass()));
  }
}
