package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LifecycleTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  @Test
  void clientConnectsLazilyOnTheFirstCall() {
    TripleClient client = fixture.client();
    assertFalse(client.isConnectionActive());
    fixture.echo().echo(EchoRequest.getDefaultInstance());
    assertTrue(client.isConnectionActive());
  }

  @Test
  void gracefulShutdownLetsCallsInFlightFinishAndRefusesNewOnes() throws Exception {
    // A short drain grace: the second GOAWAY and the close come while the slow call still runs.
    TripleServer server = fixture.startServer(b -> b.drainGrace(Duration.ofMillis(50)));
    CompletableFuture<EchoResponse> inFlight =
        fixture.echo().echoAsync(EchoRequest.newBuilder().setMessage("late").setDelayMillis(0).build());
    inFlight.get(10, TimeUnit.SECONDS);
    CompletableFuture<EchoResponse> slow = CompletableFuture.supplyAsync(
        () -> fixture.echo().echo(EchoRequest.newBuilder().setMessage("slow").setDelayMillis(1_000).build()));
    assertTrue(fixture.service.waiting.await(10, TimeUnit.SECONDS));

    server.shutdown();

    assertEquals("slow", slow.get(10, TimeUnit.SECONDS).getMessage());
    assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "server did not terminate after draining");
    StatusException refused = assertThrows(StatusException.class, () -> fixture.echo().echo(EchoRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNAVAILABLE, refused.status().code());
  }

  @Test
  void shutdownNowFailsCallsInFlight() throws Exception {
    TripleServer server = fixture.server();
    CompletableFuture<EchoResponse> slow = fixture.echo().echoAsync(EchoRequest.newBuilder().setDelayMillis(30_000).build());
    assertTrue(fixture.service.waiting.await(10, TimeUnit.SECONDS));
    server.shutdownNow();
    ExecutionException e = assertThrows(ExecutionException.class, () -> slow.get(10, TimeUnit.SECONDS));
    assertEquals(Status.Code.UNAVAILABLE, ((StatusException) e.getCause()).status().code());
    assertTrue(server.awaitTermination(Duration.ofSeconds(10)));
  }

  @Test
  void closingTheClientEndsEveryCallInFlight() throws Exception {
    // Regression: close() once shut the callback pool first, so in-flight futures never completed.
    TripleClient client = fixture.client();
    List<CompletableFuture<EchoResponse>> calls = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      calls.add(fixture.echo().echoAsync(EchoRequest.newBuilder().setDelayMillis(5_000).build()));
    }
    assertTrue(fixture.service.waiting.await(10, TimeUnit.SECONDS));
    client.close();
    for (CompletableFuture<EchoResponse> call : calls) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
      assertEquals(Status.Code.UNAVAILABLE, ((StatusException) e.getCause()).status().code());
    }
  }

  @Test
  void clientReconnectsWhenTheServerComesBack() throws Exception {
    TripleServer first = fixture.server();
    int port = first.port();
    TripleClient client = fixture.newClient(b -> b.reconnectBackoff(Duration.ofMillis(1), Duration.ofMillis(1)));
    ConnectionChanges changes = ConnectionChanges.of(client);
    EchoService echo = client.proxy(EchoService.class);
    assertEquals("one", echo.echo(EchoRequest.newBuilder().setMessage("one").build()).getMessage());

    first.shutdownNow();
    assertTrue(first.awaitTermination(Duration.ofSeconds(10)));
    StatusException down = assertThrows(StatusException.class, () -> echo.echo(EchoRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNAVAILABLE, down.status().code());

    TripleServer second = TripleServer.builder().host("127.0.0.1").port(port)
        .addService(EchoService.class, new EchoServiceImpl()).build().start();
    try {
      // A call that lands inside the backoff of an attempt made while the server was down fails fast
      // (UNAVAILABLE, "Next connection attempt in ..."), as gRPC's calls do; one after its end reconnects.
      changes.callUntilItSucceeds(
          () -> "two".equals(echo.echo(EchoRequest.newBuilder().setMessage("two").build()).getMessage()), 1,
          "the client reconnects to the server that came back");
    } finally {
      second.shutdownNow();
      second.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void failedConnectionsBackOffAndFailFastMeanwhile() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", port)
        .reconnectBackoff(Duration.ofMinutes(1), Duration.ofMinutes(2)).build()) {
      EchoService echo = client.proxy(EchoService.class);
      StatusException refused = assertThrows(StatusException.class, () -> echo.echo(EchoRequest.getDefaultInstance()));
      assertEquals(Status.Code.UNAVAILABLE, refused.status().code());
      StatusException waiting = assertThrows(StatusException.class, () -> echo.echo(EchoRequest.getDefaultInstance()));
      assertEquals(Status.Code.UNAVAILABLE, waiting.status().code());
      assertTrue(waiting.status().description().contains("Next connection attempt in"), waiting.status().description());
    }
  }

  @Test
  void callsBeyondTheServersStreamLimitWaitForAFreeStream() throws Exception {
    fixture.startServer(b -> b.maxConcurrentStreams(2));
    List<CompletableFuture<EchoResponse>> calls = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      calls.add(fixture.echo().echoAsync(EchoRequest.newBuilder().setMessage("s" + i).setDelayMillis(50).build()));
    }
    for (int i = 0; i < calls.size(); i++) {
      assertEquals("s" + i, calls.get(i).get(20, TimeUnit.SECONDS).getMessage());
    }
  }

  @Test
  void severalConnectionsPerAddressAllServeCalls() throws Exception {
    fixture.newClient(b -> b.connectionsPerAddress(3));
    for (int i = 0; i < 30; i++) {
      assertEquals("c" + i, fixture.echo().echo(EchoRequest.newBuilder().setMessage("c" + i).build()).getMessage());
    }
    assertTrue(fixture.client().writeStats().flushes() >= 3);
  }
}
