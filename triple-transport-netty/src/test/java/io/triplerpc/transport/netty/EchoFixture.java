package io.triplerpc.transport.netty;

import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real echo server on a loopback port and a client to it, started lazily by the test and closed
 * after it. Register with {@code @RegisterExtension}.
 */
final class EchoFixture implements AfterEachCallback {

  final EchoServiceImpl service = new EchoServiceImpl();
  private TripleServer server;
  private TripleClient client;

  /** Starts the server with the given builder tweaks. */
  TripleServer startServer(UnaryOperator<TripleServer.Builder> customize) {
    server = customize.apply(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, service)).build().start();
    return server;
  }

  TripleServer server() {
    if (server == null) {
      startServer(b -> b);
    }
    return server;
  }

  /** A client to the server with the given builder tweaks. */
  TripleClient newClient(UnaryOperator<TripleClient.Builder> customize) {
    if (client != null) {
      client.close();
    }
    client = customize.apply(TripleClient.builder().address("127.0.0.1", server().port())).build();
    return client;
  }

  TripleClient client() {
    return client != null ? client : newClient(b -> b);
  }

  EchoService echo() {
    return client().proxy(EchoService.class);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdownNow();
      if (!server.awaitTermination(Duration.ofSeconds(10))) {
        throw new AssertionError("server did not terminate");
      }
    }
  }
}
