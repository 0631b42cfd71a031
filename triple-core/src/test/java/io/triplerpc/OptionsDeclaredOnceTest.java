package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.internal.client.TripleClientBuilder;
import io.triplerpc.internal.server.TripleServerBuilder;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.ServerTransportOptions;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A setting both builders have is declared once, in {@link TransportBuilder}, and implemented once: a
 * setter added to both sides by hand fails here.
 */
class OptionsDeclaredOnceTest {

  @Test
  void noSetterIsDeclaredOnBothBuilders() {
    Set<String> client = signatures(TripleClient.Builder.class.getDeclaredMethods());
    Set<String> server = signatures(TripleServer.Builder.class.getDeclaredMethods());
    client.retainAll(server);
    // intercept takes each side's own interceptor type; build returns each side's product.
    client.removeAll(Set.of("build()"));
    assertEquals(Set.of(), client, "declare these in TransportBuilder");
  }

  @Test
  void theBuildersImplementNoSharedSetterAgain() {
    Set<String> shared = signatures(TransportBuilder.class.getDeclaredMethods());
    for (Class<?> builder : List.of(TripleClientBuilder.class, TripleServerBuilder.class)) {
      Set<String> own = signatures(builder.getDeclaredMethods());
      own.retainAll(shared);
      // A server's TLS needs a certificate: it checks that, then hands over.
      own.remove("tls(io.triplerpc.TlsConfig)");
      assertEquals(Set.of(), own, builder.getSimpleName() + " implements these again");
    }
  }

  @Test
  void aSharedSettingReachesEachSidesTransportOptions() {
    TripleClientBuilder client = (TripleClientBuilder) TripleClient.builder();
    TripleServerBuilder server = (TripleServerBuilder) TripleServer.builder();
    for (TransportBuilder<?> builder : List.<TransportBuilder<?>>of(client, server)) {
      builder.maxInboundMessageSize(1234).maxHeaderListSize(4321).keepAliveTime(Duration.ofSeconds(42)).ioThreads(3);
    }
    ClientTransportOptions clientOptions = client.transportOptions();
    ServerTransportOptions serverOptions = server.transportOptions();
    assertEquals(clientOptions.limits().withMaxRstFramesPerWindow(200), serverOptions.limits());
    assertEquals(1234, serverOptions.limits().maxInboundMessageSize());
    assertEquals(Duration.ofSeconds(42).toNanos(), clientOptions.keepAlive().timeNanos());
    assertEquals(clientOptions.keepAlive().timeNanos(), serverOptions.keepAlive().timeNanos());
    assertEquals(3, clientOptions.ioThreads());
    assertEquals(3, serverOptions.ioThreads());
  }

  @Test
  void eachSideKeepsItsOwnDefaults() {
    assertEquals(ClientTransportOptions.DEFAULTS, ((TripleClientBuilder) TripleClient.builder()).transportOptions());
    assertEquals(ServerTransportOptions.DEFAULTS, ((TripleServerBuilder) TripleServer.builder()).transportOptions());
    assertTrue(ClientTransportOptions.DEFAULTS.keepAlive().timeNanos() > ServerTransportOptions.DEFAULTS.keepAlive().timeNanos());
  }

  private static Set<String> signatures(Method[] methods) {
    return Arrays.stream(methods).filter(m -> !m.isSynthetic() && !m.isBridge())
        .map(m -> m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getName)
            .collect(Collectors.joining(",", "(", ")")))
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
