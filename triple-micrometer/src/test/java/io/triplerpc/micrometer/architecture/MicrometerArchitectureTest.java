package io.triplerpc.micrometer.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.micrometer.TripleMetrics;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The boundaries of {@code triple-micrometer}: it sees calls through core's public API only. */
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
  void noPublicSignatureNamesAnInternalType() {
    ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc.micrometer").check(METRICS);
  }
}
