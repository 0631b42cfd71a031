package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The admin endpoint, as an operator's script uses Dubbo's QoS port: {@code GET /offline} takes a provider out of
 * a consumer's rotation, {@code GET /online} brings it back, {@code GET /state} tells which.
 */
class AdminEndpointTest {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private final InProcessRegistry registry = new InProcessRegistry();
  private final RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
  private TripleServer first;
  private TripleServer second;
  private TripleClient client;

  @AfterEach
  void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    for (TripleServer server : new TripleServer[] {first, second}) {
      if (server != null) {
        server.shutdownNow();
        server.awaitTermination(Duration.ofSeconds(5));
      }
    }
    registry.close();
  }

  private TripleServer provider(String name, boolean admin) {
    TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named(name))
        .registration(Registration.to(registry).application("whoami-app").build());
    if (admin) {
      builder.admin(0);
    }
    return builder.build().start();
  }

  @Test
  void offlineAndOnlineOverHttpMoveTheProviderOutOfRotationAndBack() throws Exception {
    first = provider("first", true);
    second = provider("second", false);
    client = TripleClient.builder()
        .cluster(Discovery.using(registry).observer(seen).loadBalancing(LoadBalancing.ROUND_ROBIN).build()).build();
    Whoami whoami = client.proxy(Whoami.class);
    seen.awaitInstances("triple.test.Whoami", 2);
    assertEquals("online", state().get("state").asText());

    assertEquals("OK\n", get("/offline").body());
    assertTrue(first.isOffline());
    seen.awaitInstances("triple.test.Whoami", 1);
    assertEquals(Map.of("second", 10), tally(whoami, 10));
    JsonNode offline = state();
    assertEquals("offline", offline.get("state").asText());
    assertEquals(first.port(), offline.get("port").asInt());
    assertEquals("triple.test.Whoami", offline.get("services").get(0).get("name").asText());

    assertEquals("OK\n", get("/online").body());
    seen.awaitInstances("triple.test.Whoami", 2);
    assertEquals(Set.of("first", "second"), tally(whoami, 10).keySet());
    assertEquals("online", state().get("state").asText());
  }

  @Test
  void theEndpointListensOnLoopbackOnlyAndGoesWithTheServer() throws Exception {
    first = provider("first", true);
    int adminPort = first.adminPort();
    assertEquals(405, HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/offline"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode(),
        "GET only");
    first.shutdown();
    assertTrue(first.awaitTermination(Duration.ofSeconds(10)));
    assertThrows(java.io.IOException.class, () -> get("/state", adminPort), "the endpoint stopped with the server");
    second = provider("second", false);
    assertThrows(IllegalStateException.class, second::adminPort);
  }

  private JsonNode state() throws Exception {
    HttpResponse<String> response = get("/state");
    assertEquals(200, response.statusCode());
    assertEquals("application/json", response.headers().firstValue("content-type").orElse(null));
    return new ObjectMapper().readTree(response.body());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return get(path, first.adminPort());
  }

  private static HttpResponse<String> get(String path, int port) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static Map<String, Integer> tally(Whoami whoami, int calls) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      counts.merge(whoami.who("test"), 1, Integer::sum);
    }
    return counts;
  }
}
