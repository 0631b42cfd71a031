package io.triplerpc.spring.boot.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.spring.boot.TripleReference;
import io.triplerpc.spring.boot.autoconfigure.TripleHealthAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleMetricsAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleRegistryAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleTracingAutoConfiguration;
import io.triplerpc.spring.boot.internal.RegistryHealth;
import io.triplerpc.spring.boot.internal.TripleRegistryHealthIndicator;
import io.triplerpc.spring.boot.internal.TripleServerHealthIndicator;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of the starter: Triple's public API only, and each optional dependency (triple-registry,
 * triple-micrometer, triple-opentelemetry, spring-boot-health) named only by the classes that load when it is present.
 */
class StarterArchitectureTest {

  private static final JavaClasses STARTER = ArchitectureRules.moduleOf(TripleReference.class);

  @Test
  void theStarterUsesOnlyTriplesApi() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("io.triplerpc.internal..", "io.triplerpc.transport..", "io.triplerpc.registry.internal..",
            "io.triplerpc.micrometer.internal..", "io.netty..")
        .because("the starter configures what users could configure by hand")
        .check(STARTER);
  }

  @Test
  void theApiNeverDependsOnInternal() {
    // The auto-configuration wires the internals; its public signatures are checked below.
    ArchitectureRules.apiNeverDependsOnInternal("io.triplerpc.spring.boot", "io.triplerpc.spring.boot").check(STARTER);
  }

  @Test
  void noPublicSignatureNamesAnInternalType() {
    ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc.spring.boot").check(STARTER);
  }

  @Test
  void onlyRegistryClassesNeedTheRegistry() {
    noClasses().that().doNotHaveFullyQualifiedName(TripleRegistryAutoConfiguration.class.getName())
        .and().doNotHaveFullyQualifiedName(TripleHealthAutoConfiguration.class.getName() + "$RegistryHealth")
        .and().doNotHaveFullyQualifiedName(TripleRegistryHealthIndicator.class.getName())
        .and().doNotHaveFullyQualifiedName(RegistryHealth.class.getName())
        .and().doNotHaveFullyQualifiedName(TripleMetricsAutoConfiguration.class.getName() + "$DiscoveryMetricsConfiguration")
        .should().dependOnClassesThat().resideInAPackage("io.triplerpc.registry..")
        .because("triple-registry is optional: an application without it must load every other class")
        .check(STARTER);
  }

  @Test
  void onlyMetricsClassesNeedMicrometer() {
    noClasses().that().doNotHaveFullyQualifiedName(TripleMetricsAutoConfiguration.class.getName())
        .and().doNotHaveFullyQualifiedName(TripleMetricsAutoConfiguration.class.getName() + "$DiscoveryMetricsConfiguration")
        .should().dependOnClassesThat().resideInAnyPackage("io.micrometer..", "io.triplerpc.micrometer..")
        .because("triple-micrometer and Micrometer are optional")
        .check(STARTER);
  }

  @Test
  void onlyTracingClassesNeedOpenTelemetry() {
    noClasses().that().doNotHaveFullyQualifiedName(TripleTracingAutoConfiguration.class.getName())
        .should().dependOnClassesThat().resideInAnyPackage("io.opentelemetry..", "io.triplerpc.opentelemetry..")
        .because("triple-opentelemetry and OpenTelemetry are optional")
        .check(STARTER);
  }

  @Test
  void onlyHealthClassesNeedSpringBootHealth() {
    noClasses().that().doNotHaveFullyQualifiedName(TripleHealthAutoConfiguration.class.getName())
        .and().doNotHaveFullyQualifiedName(TripleHealthAutoConfiguration.class.getName() + "$RegistryHealth")
        .and().doNotHaveFullyQualifiedName(TripleServerHealthIndicator.class.getName())
        .and().doNotHaveFullyQualifiedName(TripleRegistryHealthIndicator.class.getName())
        .should().dependOnClassesThat().resideInAPackage("org.springframework.boot.health..")
        .because("spring-boot-health (Actuator) is optional")
        .check(STARTER);
  }

  @Test
  void onlyTestsThatStartAnotherProcessPoll() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(getClass()).check(ArchitectureRules.moduleOf(getClass()));
  }
}
