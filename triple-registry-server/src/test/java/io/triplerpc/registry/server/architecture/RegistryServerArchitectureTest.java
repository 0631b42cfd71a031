package io.triplerpc.registry.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.registry.server.RegistryServer;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of {@code triple-registry-server}: a Triple server built on core's public API, as any
 * service is, beside the registry's client side, which never needs it.
 */
class RegistryServerArchitectureTest {

  private static final JavaClasses SERVER = ArchitectureRules.moduleOf(RegistryServer.class);

  @Test
  void theServerUsesOnlyCoresApi() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.internal..")
        .because("core's internal packages may change at any time; the registry server is a service like any other")
        .check(SERVER);
  }

  @Test
  void theServerNeverReachesATransport() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.transport..", "io.netty.channel..")
        .because("the registry server is a TripleServer, whatever carries it")
        .check(SERVER);
  }

  @Test
  void noPublicSignatureNamesAnInternalType() {
    ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc.registry").check(SERVER);
  }
}
