package io.triplerpc.transport.netty.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.triplerpc.ClientProtocol;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Clients without threads of their own share the client event loops: the same loops for all, held
 * while any of them is open, stopped when the last one is done; a client that asks for threads gets
 * loops of its own. Counts are read relative to what other tests may hold.
 */
class SharedEventLoopsTest {

  private static final InetSocketAddress NOWHERE = new InetSocketAddress("127.0.0.1", 1);

  private static EventLoopGroup loopsOf(ClientTransport transport) {
    return ((EventLoop) transport.scheduler()).parent();
  }

  private static ClientTransportOptions withIoThreads(int threads) {
    ClientTransportOptions d = ClientTransportOptions.DEFAULTS;
    return new ClientTransportOptions(d.limits(), d.keepAlive(), d.connectionsPerAddress(), d.connectTimeoutMillis(),
        d.initialBackoffMillis(), d.maxBackoffMillis(), threads, null, ClientProtocol.GRPC);
  }

  @Test
  void clientsShareTheLoopsUntilTheLastOneCloses() throws Exception {
    int before = SharedEventLoops.users();
    NettyClientTransportFactory first = new NettyClientTransportFactory();
    NettyClientTransportFactory second = new NettyClientTransportFactory();
    ClientTransport a = first.newTransport(NOWHERE, ClientTransportOptions.DEFAULTS);
    // A client's second address takes no second share.
    ClientTransport b = first.newTransport(new InetSocketAddress("127.0.0.1", 2), ClientTransportOptions.DEFAULTS);
    ClientTransport c = second.newTransport(NOWHERE, ClientTransportOptions.DEFAULTS);
    EventLoopGroup shared = loopsOf(a);
    assertSame(shared, loopsOf(b));
    assertSame(shared, loopsOf(c));
    assertEquals(before + 2, SharedEventLoops.users());

    a.shutdown();
    b.shutdown();
    first.close();
    first.close();
    // No connection was ever open: the share goes as soon as the close future's listener runs, and once.
    first.loopsReleased().get(10, TimeUnit.SECONDS);
    assertEquals(before + 1, SharedEventLoops.users(), "the first client let go");
    assertFalse(shared.isShuttingDown(), "the second client still runs on them");
    NettyClientTransportFactory closedEarly = new NettyClientTransportFactory();
    closedEarly.close();
    assertThrows(IllegalStateException.class, () -> closedEarly.newTransport(NOWHERE, ClientTransportOptions.DEFAULTS),
        "a client closed before its first connection takes no loops");

    c.shutdown();
    second.close();
    second.loopsReleased().get(10, TimeUnit.SECONDS);
    assertEquals(before, SharedEventLoops.users(), "the second client let go");
    if (before == 0) {
      assertTrue(shared.isShuttingDown(), "the last client to close stops the loops");
      assertTrue(shared.awaitTermination(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aClientWithThreadsOfItsOwnDoesNotShare() throws Exception {
    int before = SharedEventLoops.users();
    NettyClientTransportFactory own = new NettyClientTransportFactory();
    NettyClientTransportFactory shared = new NettyClientTransportFactory();
    ClientTransport mine = own.newTransport(NOWHERE, withIoThreads(1));
    ClientTransport theirs = shared.newTransport(NOWHERE, ClientTransportOptions.DEFAULTS);
    try {
      assertNotSame(loopsOf(theirs), loopsOf(mine));
      assertEquals(before + 1, SharedEventLoops.users());
    } finally {
      mine.shutdown();
      theirs.shutdown();
      own.close();
      shared.close();
    }
    own.loopsReleased().get(10, TimeUnit.SECONDS);
    assertTrue(loopsOf(mine).isShuttingDown(), "its own loops stop with it");
    shared.loopsReleased().get(10, TimeUnit.SECONDS);
    assertEquals(before, SharedEventLoops.users(), "the other client let go");
  }

  @Test
  void closingOneClientLeavesAnotherCallingOnTheSameLoops() throws Exception {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl()).build().start();
    try (TripleClient second = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      EchoRequest hello = EchoRequest.newBuilder().setMessage("hello").build();
      try (TripleClient first = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
        assertEquals("hello", first.proxy(EchoService.class).echo(hello).getMessage());
        assertEquals("hello", second.proxy(EchoService.class).echo(hello).getMessage());
      }
      for (int i = 0; i < 100; i++) {
        assertEquals("hello", second.proxy(EchoService.class).echo(hello).getMessage());
      }
    } finally {
      server.shutdownNow();
    }
  }
}
