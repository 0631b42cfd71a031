package io.triplerpc.benchmark.triple;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.TripleServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The REST benchmark's two requests (scripts/bench-rest.sh), over HTTP/1.1 to the Triple server it measures:
 * if the rules of user_rest_service.proto stopped being served, the script would have nothing to load.
 */
class UserRestServerTest {

  private static TripleServer server;
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void start() throws Exception {
    server = UserRestServer.start(0, false);
  }

  @AfterAll
  static void stop() {
    server.shutdownNow();
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return CLIENT.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  @Test
  void getAnswersTheUserAsJson() throws Exception {
    HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/v1/users/42")).GET());
    assertEquals(200, response.statusCode(), response.body());
    JsonNode user = JSON.readTree(response.body());
    assertEquals("42", user.get("id").asText());
    assertEquals("Doug Lea", user.get("name").asText());
    assertEquals("/u/42.png", user.get("icon").asText());
  }

  @Test
  void postTakesTheUserFromTheBody() throws Exception {
    String body = "{\"id\":\"42\",\"name\":\"Doug Lea\",\"email\":\"dev@triplerpc.io\",\"mobile\":\"18612345678\"}";
    HttpResponse<String> created = send(HttpRequest.newBuilder(uri("/v1/users"))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    assertEquals(200, created.statusCode(), created.body());
    assertEquals(JSON.readTree("{\"created\":true}"), JSON.readTree(created.body()));
    // The service says whether the id it got is positive: the body reached it, not a default message.
    HttpResponse<String> noId = send(HttpRequest.newBuilder(uri("/v1/users"))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"x\"}")));
    assertEquals(200, noId.statusCode(), noId.body());
    assertEquals(JSON.readTree("{\"created\":false}"), JSON.readTree(noId.body()));
  }
}
