package io.triplerpc.registry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.registry.Registry;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of {@code triple-registry}: discovery is built on core's public API and its SPI
 * ({@code io.triplerpc.spi}), as any third-party registry would be, and never on a transport.
 */
class RegistryArchitectureTest {

  private static final JavaClasses REGISTRY = ArchitectureRules.moduleOf(Registry.class);

  @Test
  void theRegistryUsesOnlyCoresApiAndSpi() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.internal..")
        .because("core's internal packages may change at any time; the registry plugs in through io.triplerpc.spi")
        .check(REGISTRY);
  }

  @Test
  void theRegistryNeverReachesATransport() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.transport..")
        .because("the registry's clients and server are Triple clients and servers, whatever carries them")
        .check(REGISTRY);
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.netty..")
        .because("Netty reaches the registry only through triple-core (whose DnsResolver the transport"
            + " provides), so that it runs on triple-netty-shaded's relocated Netty as well")
        .check(REGISTRY);
  }

  @Test
  void theClientSideNeverNeedsTheRegistryServer() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("io.triplerpc.registry.server..", "io.triplerpc.registry.internal.server..")
        .because("the registry server is triple-registry-server, which providers and consumers do not ship")
        .check(REGISTRY);
  }

  @Test
  void noPublicSignatureNamesAnInternalType() {
    ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc.registry").check(REGISTRY);
  }

  @Test
  void onlyTestsThatStartAnotherProcessPoll() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(getClass()).check(ArchitectureRules.moduleOf(getClass()));
  }
}
