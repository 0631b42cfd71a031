package io.triplerpc.transport.netty.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.ClientProtocol;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.WriteStats;
import io.triplerpc.testing.AwaitPeers;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link TripleServer#openConnections()} and {@link TripleServer#writeStats()}, the counts behind gauges. */
class ServerCountsTest {

  private TripleServer server;

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

    server = TripleServer.builder().host("127.0.0.1").port(0).addService(EchoService.class, new EchoServiceImpl())
        .build().start();
    assertEquals(0, server.openConnections());
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      client.proxy(EchoService.class).echo(EchoRequest.newBuilder().setMessage("one").build());
      assertEquals(1, server.openConnections());
      // A socket that has not said which protocol it speaks counts too.
      try (Socket silent = new Socket()) {
        silent.connect(new InetSocketAddress("127.0.0.1", server.port()));
        AwaitPeers.until(() -> server.openConnections() == 2, "the silent socket is counted");
      }
      AwaitPeers.until(() -> server.openConnections() == 1, "the silent socket is gone");
    }
    AwaitPeers.until(() -> server.openConnections() == 0, "the client's connection is gone");
  }

  @Test
  void writeCountsKeepWhatClosedConnectionsWrote() {
    server = TripleServer.builder().host("127.0.0.1").port(0).addService(EchoService.class, new EchoServiceImpl())
        .build().start();
    WriteStats afterFirst;
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      EchoService echo = client.proxy(EchoService.class);
      for (int i = 0; i < 5; i++) {
        echo.echo(EchoRequest.newBuilder().setMessage("m" + i).build());
      }
      // A drain counts what it wrote once it has flushed it, so the client may have the answer first.
      AwaitPeers.until(() -> server.writeStats().commands() >= 5, "five responses counted");
      afterFirst = server.writeStats();
      assertTrue(afterFirst.flushes() > 0 && afterFirst.flushes() <= afterFirst.commands(), afterFirst.toString());
    }
    AwaitPeers.until(() -> server.openConnections() == 0, "the connection closed");
    WriteStats closed = server.writeStats();
    assertTrue(closed.commands() >= afterFirst.commands() && closed.flushes() >= afterFirst.flushes(),
        afterFirst + " then " + closed);
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      client.proxy(EchoService.class).echo(EchoRequest.newBuilder().setMessage("again").build());
      AwaitPeers.until(() -> server.writeStats().commands() > closed.commands(), "the new connection's writes add up");
    }
  }

  @Test
  void webCallsOnHttp2AreWrittenAsCommandsOfTheConnectionsQueue() {
    server = TripleServer.builder().host("127.0.0.1").port(0).addService(EchoService.class, new EchoServiceImpl())
        .build().start();
    long commands = 0;
    for (ClientProtocol protocol : new ClientProtocol[] {ClientProtocol.CONNECT, ClientProtocol.GRPC_WEB}) {
      try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).protocol(protocol)
          .build()) {
        client.proxy(EchoService.class).echo(EchoRequest.newBuilder().setMessage(protocol.name()).build());
        long before = commands;
        // The head and the body at least (gRPC-Web's body carries its trailers).
        AwaitPeers.until(() -> server.writeStats().commands() >= before + 2, protocol + "'s response counted");
        commands = server.writeStats().commands();
      }
    }
  }
}
