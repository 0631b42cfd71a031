package io.triplerpc.registry.zookeeper.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The ZooKeeper backend is a registry like any other: it implements {@code triple-registry}'s
 * public {@code Registry} and reaches no internal package of core, the transport or the registry.
 */
class ZooKeeperArchitectureTest {

  private static final JavaClasses ZOOKEEPER = ArchitectureRules.moduleOf(ZooKeeperRegistry.class);

  @Test
  void theBackendUsesOnlyPublicApis() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "io.triplerpc.internal..", "io.triplerpc.transport..", "io.triplerpc.registry.internal..")
        .because("a backend written outside this repository would have only the public APIs; this one proves"
            + " they are enough")
        .check(ZOOKEEPER);
  }

  @Test
  void onlyTestsThatStartAnotherProcessPoll() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(getClass()).check(ArchitectureRules.moduleOf(getClass()));
  }
}
