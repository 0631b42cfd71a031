package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.TestService;
import io.triplerpc.ClientProtocol;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The interop server ({@code scripts/interop-server.sh}) answers the web protocols on its one port
 * beside gRPC: a plain HTTP/1.1 JSON POST (Connect unary, as curl sends it), and Triple's client in
 * gRPC-Web and in Connect.
 */
class InteropServerWebProtocolsTest {

  private static TripleServer server;

  @BeforeAll
  static void start() {
    server = InteropServer.start("127.0.0.1", 0);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void aJsonPostOverHttp1IsAConnectUnaryCall() throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<String> response = http.send(HttpRequest.newBuilder()
        .uri(URI.create("http://127.0.0.1:" + server.port() + "/grpc.testing.TestService/UnaryCall"))
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"responseSize\":3}"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("{\"payload\":{\"body\":\"AAAA\"}}", response.body());
  }

  @ParameterizedTest
  @EnumSource(value = ClientProtocol.class, names = {"GRPC_WEB", "CONNECT"})
  void tripleClientsOfTheWebProtocolsAreAnswered(ClientProtocol protocol) {
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).protocol(protocol).build()) {
      TestService service = client.proxy(TestService.class);
      assertEquals(Empty.getDefaultInstance(), service.emptyCall(Empty.getDefaultInstance()));
      assertEquals(5, service.unaryCall(SimpleRequest.newBuilder().setResponseSize(5).build()).getPayload().getBody().size());
    }
  }
}
