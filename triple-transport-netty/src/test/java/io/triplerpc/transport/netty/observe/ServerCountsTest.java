package io.triplerpc.transport.netty.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.ClientProtocol;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.server.ServerTransports;
import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.testing.Signal;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link TripleServer#openConnections()} and {@link TripleServer#writeStats()}, the counts behind gauges. */
class ServerCountsTest {

  private TripleServer server;
  /** Fired by the server's transport after each change of its connections. */
  private final Signal connections = new Signal();

  private TripleServer start() {
    TripleServer started = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl()).build().start();
    transport(started).onConnectionsChanged(connections::fire);
    return started;
  }

  private static ServerTransport transport(TripleServer server) {
    return ServerTransports.of(server);
  }

  private void awaitOpenConnections(int count, String what) {
    connections.await(() -> server.openConnections() == count, what);
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void connectionsAreCountedWhileOpenWhateverTheyAre() throws Exception {
    TripleServer unstarted = TripleServer.builder().build();
    assertEquals(0, unstarted.openConnections());
    assertEquals(new WriteStats(0, 0), unstarted.writeStats());

    server = start();
    assertEquals(0, server.openConnections());
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      client.proxy(EchoService.class).echo(EchoRequest.newBuilder().setMessage("one").build());
      assertEquals(1, server.openConnections());
      // A socket that has not said which protocol it speaks counts too.
      try (Socket silent = new Socket()) {
        silent.connect(new InetSocketAddress("127.0.0.1", server.port()));
        awaitOpenConnections(2, "the silent socket is counted");
      }
      awaitOpenConnections(1, "the silent socket is gone");
    }
    awaitOpenConnections(0, "the client's connection is gone");
  }

  @Test
  void writeCountsKeepWhatClosedConnectionsWrote() throws Exception {
    server = start();
    WriteStats afterFirst;
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      EchoService echo = client.proxy(EchoService.class);
      for (int i = 0; i < 5; i++) {
        echo.echo(EchoRequest.newBuilder().setMessage("m" + i).build());
      }
      // A drain counts what it wrote once it has flushed it, so the client may have the answer first.
      transport(server).writesSettled().get(10, TimeUnit.SECONDS);
      afterFirst = server.writeStats();
      assertTrue(afterFirst.commands() >= 5, "five responses counted: " + afterFirst);
      assertTrue(afterFirst.flushes() > 0 && afterFirst.flushes() <= afterFirst.commands(), afterFirst.toString());
    }
    awaitOpenConnections(0, "the connection closed");
    WriteStats closed = server.writeStats();
    assertTrue(closed.commands() >= afterFirst.commands() && closed.flushes() >= afterFirst.flushes(),
        afterFirst + " then " + closed);
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      client.proxy(EchoService.class).echo(EchoRequest.newBuilder().setMessage("again").build());
      transport(server).writesSettled().get(10, TimeUnit.SECONDS);
      assertTrue(server.writeStats().commands() > closed.commands(), "the new connection's writes add up");
    }
  }

  @Test
  void webCallsOnHttp2AreWrittenAsCommandsOfTheConnectionsQueue() throws Exception {
    server = TripleServer.builder().host("127.0.0.1").port(0).addService(EchoService.class, new EchoServiceImpl())
        .build().start();
    long commands = 0;
    for (ClientProtocol protocol : new ClientProtocol[] {ClientProtocol.CONNECT, ClientProtocol.GRPC_WEB}) {
      try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).protocol(protocol)
          .build()) {
        client.proxy(EchoService.class).echo(EchoRequest.newBuilder().setMessage(protocol.name()).build());
        long before = commands;
        // The head and the body at least (gRPC-Web's body carries its trailers).
        transport(server).writesSettled().get(10, TimeUnit.SECONDS);
        commands = server.writeStats().commands();
        assertTrue(commands >= before + 2, protocol + "'s response counted: " + commands + " after " + before);
      }
    }
  }
}
