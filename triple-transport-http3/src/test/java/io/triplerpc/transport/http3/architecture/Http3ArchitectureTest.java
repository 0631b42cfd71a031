package io.triplerpc.transport.http3.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.testing.ArchitectureRules;
import io.triplerpc.transport.http3.internal.NettyHttp3ServerTransportFactory;
import io.triplerpc.transport.netty.internal.client.AbstractClientStream;
import io.triplerpc.transport.netty.internal.client.ClientFraming;
import io.triplerpc.transport.netty.internal.client.HostResolver;
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
  void http3ReachesTheNettyTransportOnlyForItsExchangesStreamsAndPlumbing() {
    noClasses().should().dependOnClassesThat(
            resideInAnyPackage("io.triplerpc.transport.netty.internal.client..")
                .and(not(type(AbstractClientStream.class)))
                .and(not(type(AbstractClientStream.State.class)))
                .and(not(type(ClientFraming.class)))
                .and(not(type(HostResolver.class))))
        .because("an HTTP/3 client stream is a third AbstractClientStream under the client's framings, and an"
            + " HTTP/3 request is served as an HttpExchange by the server's: no protocol written twice; host names"
            + " are looked up by the TCP client's resolver")
        .check(HTTP3);
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.triplerpc.transport.netty.internal.dns..")
        .check(HTTP3);
  }

  @Test
  void http3ServerSideWritesWithoutTheClientsWriteQueue() {
    noClasses().that().haveSimpleNameStartingWith("Http3Server").or().haveSimpleName("Http3Exchange")
        .should().dependOnClassesThat().resideInAnyPackage(
            "io.triplerpc.transport.netty.internal.client..", "io.triplerpc.transport.netty.internal.write..")
        .because("the server's request streams write to their QUIC channels through no write queue")
        .check(HTTP3);
  }

  @Test
  void onlyTestsThatStartAnotherProcessPoll() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(getClass()).check(ArchitectureRules.moduleOf(getClass()));
  }
}
