package io.triplerpc.registry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import io.triplerpc.registry.Registry;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of {@code triple-registry}: discovery is built on core's public API and its SPI
 * ({@code io.triplerpc.spi}), as any third-party registry would be, and never on a transport.
 */
class RegistryArchitectureTest {

  /** The registry's own classes: where {@link Registry} was loaded from, not the jars beside it. */
  private static final JavaClasses REGISTRY = new ClassFileImporter().importLocations(
      Set.of(Location.of(Registry.class.getProtectionDomain().getCodeSource().getLocation())));

  @Test
  void theRegistryUsesOnlyCoresApiAndSpi() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.internal..")
        .because("core's internal packages may change at any time; the registry plugs in through io.triplerpc.spi")
        .check(REGISTRY);
  }

  @Test
  void theRegistryNeverReachesATransport() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.transport..", "io.netty.channel..")
        .because("the registry's clients and server are Triple clients and servers, whatever carries them")
        .check(REGISTRY);
  }
}
