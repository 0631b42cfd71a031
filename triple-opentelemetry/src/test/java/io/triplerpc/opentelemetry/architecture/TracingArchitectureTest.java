package io.triplerpc.opentelemetry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.opentelemetry.TripleTracing;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * Tracing is an add-on like any other: it sees calls through core's public interceptor API only, and
 * its own entry point names no internal type.
 */
class TracingArchitectureTest {

  private static final JavaClasses TRACING = ArchitectureRules.moduleOf(TripleTracing.class);

  @Test
  void tracingUsesOnlyCoresPublicApi() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.internal..", "io.triplerpc.transport..")
        .because("interceptors written outside this repository have only the public API; this module proves it is"
            + " enough to trace every call")
        .check(TRACING);
  }

  @Test
  void publicSignaturesNameNoInternalType() {
    ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc.opentelemetry").check(TRACING);
  }
}
