package io.triplerpc.transport.netty.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.transport.netty.internal.client.NettyClientTransportFactory;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of {@code triple-transport-netty}: it moves streams for core and knows nothing of
 * how calls are made or served, nor of discovery.
 */
class TransportArchitectureTest {

  private static final JavaClasses TRANSPORT = ArchitectureRules.moduleOf(NettyClientTransportFactory.class);

  @Test
  void theTransportReachesCoreOnlyThroughItsStreamAndWireContracts() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "io.triplerpc.internal.client..", "io.triplerpc.internal.server..", "io.triplerpc.internal.descriptor..",
            "io.triplerpc.internal.reflection..", "io.triplerpc.internal.health..")
        .because("core talks to the transport through io.triplerpc.internal.stream (streams, listeners,"
            + " options) and io.triplerpc.internal.wire (framing and headers); calls, dispatch and services"
            + " stay on core's side")
        .check(TRANSPORT);
  }

  @Test
  void theTransportNeverReachesTheRegistry() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.registry..")
        .because("discovery sits above the client (io.triplerpc.spi), never inside a connection")
        .check(TRANSPORT);
    // The one plug-in the transport gives discovery: resolving DNS names on its channels, beside the
    // connections and never inside one.
    noClasses().that().resideOutsideOfPackage("io.triplerpc.transport.netty.internal.dns..")
        .should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.spi..")
        .because("discovery sits above the client (io.triplerpc.spi), never inside a connection")
        .check(TRANSPORT);
  }

  @Test
  void onlyTestsThatStartAnotherProcessPoll() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(getClass()).check(ArchitectureRules.moduleOf(getClass()));
  }
}
