package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SmokeTest {

  @Test
  void unaryCallRoundTrips() throws Exception {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl()).build().start();
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      EchoService echo = client.proxy(EchoService.class);
      assertEquals("hi", echo.echo(EchoRequest.newBuilder().setMessage("hi").build()).getMessage());
      assertEquals("again", echo.echo(EchoRequest.newBuilder().setMessage("again").build()).getMessage());
    } finally {
      server.shutdown();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }
}
