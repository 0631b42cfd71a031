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

  final EchoServiceImpl service;
  private TripleServer server;
  /** Every client made, the last one first: all are closed after the test. */
  private final java.util.Deque<TripleClient> clients = new java.util.ArrayDeque<>();

  EchoFixture() {
    this(new EchoServiceImpl());
  }

  /** A fixture serving {@code service}, such as an {@link EchoServiceImpl} that records what it sees. */
  EchoFixture(EchoServiceImpl service) {
    this.service = service;
  }

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

  /** A new client to the server with the given builder tweaks; the ones made before stay open. */
  TripleClient newClient(UnaryOperator<TripleClient.Builder> customize) {
    TripleClient client = customize.apply(TripleClient.builder().address("127.0.0.1", server().port())).build();
    clients.push(client);
    return client;
  }

  /** The last client made, or a new one with the defaults. */
  TripleClient client() {
    return clients.isEmpty() ? newClient(b -> b) : clients.peek();
  }

  EchoService echo() {
    return client().proxy(EchoService.class);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    clients.forEach(TripleClient::close);
    clients.clear();
    if (server != null) {
      server.shutdownNow();
      if (!server.awaitTermination(Duration.ofSeconds(10))) {
        throw new AssertionError("server did not terminate");
      }
    }
  }
}
