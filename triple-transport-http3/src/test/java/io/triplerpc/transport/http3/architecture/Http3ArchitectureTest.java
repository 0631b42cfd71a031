package io.triplerpc.transport.http3.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.testing.ArchitectureRules;
import io.triplerpc.transport.http3.internal.NettyHttp3ServerTransportFactory;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of {@code triple-transport-http3}: a plug-in of core's stream contracts that serves each
 * HTTP/3 request through triple-transport-netty's framings, knowing no more of core than the transport
 * does, and nothing of discovery.
 */
class Http3ArchitectureTest {

  private static final JavaClasses HTTP3 = ArchitectureRules.moduleOf(NettyHttp3ServerTransportFactory.class);

  @Test
  void http3ReachesCoreOnlyThroughItsStreamContracts() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "io.triplerpc.internal.client..", "io.triplerpc.internal.server..", "io.triplerpc.internal.descriptor..",
            "io.triplerpc.internal.reflection..", "io.triplerpc.internal.health..", "io.triplerpc.registry..",
            "io.triplerpc.spi..")
        .because("HTTP/3 is a transport: core talks to it through io.triplerpc.internal.stream, as to the"
            + " TCP one; calls, dispatch, services and discovery stay on core's side")
        .check(HTTP3);
  }

  @Test
  void http3ReachesTheNettyTransportOnlyForItsExchangesAndPlumbing() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "io.triplerpc.transport.netty.internal.client..", "io.triplerpc.transport.netty.internal.write..",
            "io.triplerpc.transport.netty.internal.dns..")
        .because("an HTTP/3 request is served as an HttpExchange by the framings of"
            + " io.triplerpc.transport.netty.internal.server, with no protocol written twice")
        .check(HTTP3);
  }

  @Test
  void onlyTestsThatStartAnotherProcessPoll() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(getClass()).check(ArchitectureRules.moduleOf(getClass()));
  }
}
