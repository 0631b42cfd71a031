package io.triplerpc.registry.internal.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.triplerpc.TripleClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RegistryConnection} alone: a stalled connection is replaced once, however many report it,
 * and never once the registry is closed. Clients connect lazily, so no server is needed.
 */
class RegistryConnectionTest {

  private final List<TripleClient> clients = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final RegistryConnection connection = new RegistryConnection("127.0.0.1:1", () -> {
    TripleClient client = TripleClient.builder().address("127.0.0.1", 1).ioThreads(1).build();
    clients.add(client);
    return client;
  }, Duration.ofSeconds(1), closed::get);

  @AfterEach
  void closeClients() {
    clients.forEach(TripleClient::close);
  }

  @Test
  void callsAndStreamsComeFromTheCurrentConnection() {
    RegistryConnection.Proxies current = connection.current();
    assertSame(current.calls(), connection.calls());
    assertSame(current.streams(), connection.streams());
    assertNotSame(current.calls(), current.streams(), "streams have no call deadline");
  }

  @Test
  void aStalledConnectionIsReplacedOnceWhoeverReportsIt() {
    RegistryConnection.Proxies first = connection.current();
    connection.replace(first.streams());
    RegistryConnection.Proxies second = connection.current();
    assertEquals(2, clients.size());
    assertNotSame(first.client(), second.client());
    assertSame(second.calls(), connection.calls());

    // A subscription that saw the same connection stall, reporting late: nothing more to do.
    connection.replace(first.streams());
    assertSame(second, connection.current());
    assertEquals(2, clients.size());
  }

  @Test
  void aClosedRegistryOpensNoNewConnection() {
    RegistryConnection.Proxies first = connection.current();
    closed.set(true);
    connection.replace(first.streams());
    assertSame(first, connection.current());
    assertEquals(1, clients.size());
  }
}
