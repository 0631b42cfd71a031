package io.triplerpc.interop.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.rest.v1.LibraryService;
import io.triplerpc.interop.rest.v1.LibraryStreams;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-gateway v2 is the reference for REST transcoding: the same table of requests
 * ({@code rest/grpc-gateway-cases.json}: paths, nested fields, {@code **}, custom verbs, queries, bodies,
 * {@code response_body}, {@code additional_bindings}, errors, routing) goes to grpc-gateway in front of a
 * Triple server and to that Triple server's own port, and the answers must be equal.
 *
 * <p>What "equal" means: the same HTTP status, and JSON bodies equal as values (Jackson's {@link JsonNode}
 * equality, numbers by value: member order and the spelling of a number, {@code 0} or {@code 0.0}, aside). One
 * exception is an error's {@code message} in the cases marked {@code messageMayDiffer}: errors that the transcoder
 * itself raises (a malformed body, a query value of the wrong type), where grpc-gateway's text is Go's
 * (strconv and protojson wording, which protojson even varies on purpose from build to build); there the
 * {@code code} and the rest of the body must still be equal, and the table asks grpc-gateway's message to
 * name the offending parameter. An error the service raises travels as grpc-message and must be equal to
 * the letter. The other: a case's {@code tripleStatus} and {@code tripleJson} are intended differences
 * (each listed in {@code docs/rest.md}), such as 405 where grpc-gateway answers 501 to a known path with a
 * method it does not bind, or a {@code %2F} in a path that grpc-gateway's default (legacy) unescaping decodes
 * before matching and HttpRule's rules do not. And in every body, grpc-gateway's {@code null} for an unset
 * message field counts as absent: Triple leaves such fields out. Response headers are not compared.
 *
 * <p>{@link #theGatewayAnswersAsTheTableSays} checks the table against grpc-gateway alone, so the expected
 * values are themselves verified; {@link #tripleAnswersAsTheGatewayDoes} is the comparison.
 */
class GrpcGatewayParityTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MINIMUM_CASES = 40;
  /** The table's size: a case that goes missing fails the test rather than shrink the comparison unseen. */
  private static final int CASES = 106;
  private static final Set<String> KEYS = Set.of("name", "method", "path", "body", "rawBody", "status", "json",
      "includes", "emptyBody", "messageContains", "messageMayDiffer", "tripleStatus", "tripleJson", "lines",
      "contentType");
  /** JSON values as a reader sees them: numbers equal by value ({@code 0} and {@code 0.0}), the rest by equals. */
  private static final Comparator<JsonNode> SAME_VALUE = (a, b) -> {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue());
    }
    return a.equals(b) ? 0 : 1;
  };

  private static List<JsonNode> cases;
  private static TripleServer server;
  private static GrpcGateway gateway;
  private static HttpClient http;

  @BeforeAll
  static void readTable() throws IOException {
    cases = readCases();
  }

  /** Starts the Triple server and grpc-gateway in front of it, once; skips the test where Go is missing. */
  private static void startPeers() throws Exception {
    String unavailable = GrpcGateway.unavailable();
    assumeTrue(unavailable == null, unavailable);
    if (gateway != null) {
      return;
    }
    Path executable = GrpcGateway.build();
    server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .addService(LibraryService.class, new LibraryServiceImpl())
        .addService(LibraryStreams.class, new LibraryStreamsImpl())
        .build()
        .start();
    gateway = GrpcGateway.start(executable, server.port());
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  }

  @AfterAll
  static void stop() throws Exception {
    if (gateway != null) {
      gateway.close();
    }
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void theTableHasEnoughWellFormedCases() {
    assertTrue(cases.size() >= MINIMUM_CASES, cases.size() + " cases, fewer than " + MINIMUM_CASES);
    assertEquals(CASES, cases.size(), "cases in the table");
    Set<String> names = new HashSet<>();
    for (JsonNode c : cases) {
      assertTrue(names.add(c.path("name").asText()), "two cases named " + c.path("name"));
      c.fieldNames().forEachRemaining(key -> assertTrue(KEYS.contains(key), "unknown key " + key + " in " + c));
      assertTrue(c.has("method") && c.has("path") && c.path("status").isInt(), "method, path or status missing: " + c);
      assertTrue(c.has("json") || c.has("includes") || c.has("emptyBody"), "no expected answer: " + c);
    }
  }

  @Test
  void theGatewayAnswersAsTheTableSays() throws Exception {
    startPeers();
    List<String> failures = new ArrayList<>();
    ArrayNode answers = JSON.createArrayNode();
    for (JsonNode c : cases) {
      HttpResponse<String> response = send(gateway.port(), c);
      answers.addObject().put("name", c.get("name").asText()).put("status", response.statusCode())
          .put("body", response.body());
      String problem = againstTable(c, response);
      if (problem != null) {
        failures.add(describe(c) + ": " + problem);
      }
    }
    // What the gateway answered, for whoever extends the table.
    Path record = Path.of(System.getProperty("basedir", "."), "target", "grpc-gateway", "gateway-answers.json");
    Files.writeString(record, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(answers));
    if (!failures.isEmpty()) {
      fail(failures.size() + " of " + cases.size() + " cases: grpc-gateway does not answer as the table says\n"
          + String.join("\n", failures));
    }
  }

  @Test
  void tripleAnswersAsTheGatewayDoes() throws Exception {
    startPeers();
    List<String> failures = new ArrayList<>();
    for (JsonNode c : cases) {
      HttpResponse<String> reference = send(gateway.port(), c);
      HttpResponse<String> triple = send(server.port(), c);
      String problem = compare(c, reference, triple);
      if (problem != null) {
        failures.add(describe(c) + ": " + problem);
      }
    }
    if (!failures.isEmpty()) {
      fail(failures.size() + " of " + cases.size() + " cases: Triple answers otherwise than grpc-gateway\n"
          + String.join("\n", failures));
    }
  }

  /** Why the gateway's answer is not what the case expects, or null. */
  private static String againstTable(JsonNode c, HttpResponse<String> response) {
    int status = c.get("status").asInt();
    if (response.statusCode() != status) {
      return "status " + response.statusCode() + ", expected " + status + "; body " + response.body();
    }
    if (c.path("emptyBody").asBoolean()) {
      return response.body().isEmpty() ? null : "a body where none was expected: " + response.body();
    }
    JsonNode body;
    try {
      body = read(c, response.body());
    } catch (JsonProcessingException e) {
      return "not JSON: " + response.body();
    }
    if (c.has("messageContains") && !body.path("message").asText().contains(c.get("messageContains").asText())) {
      return "message does not contain \"" + c.get("messageContains").asText() + "\": " + response.body();
    }
    if (c.has("json") && !c.get("json").equals(SAME_VALUE, body)) {
      return "body " + body + ", expected " + c.get("json");
    }
    if (c.has("includes") && !includes(body, c.get("includes"))) {
      return "body " + body + " does not include " + c.get("includes");
    }
    return null;
  }

  /** Why Triple's answer differs from grpc-gateway's, or null. */
  private static String compare(JsonNode c, HttpResponse<String> reference, HttpResponse<String> triple) {
    int status = c.path("tripleStatus").asInt(reference.statusCode());
    if (triple.statusCode() != status) {
      return "status " + triple.statusCode() + ", expected " + status + " (grpc-gateway " + reference.statusCode()
          + "); body " + triple.body();
    }
    if (reference.body().isEmpty() || triple.body().isEmpty()) {
      return reference.body().equals(triple.body()) ? null
          : "body \"" + triple.body() + "\", grpc-gateway \"" + reference.body() + "\"";
    }
    if (c.path("lines").asBoolean() && !reference.headers().firstValue("content-type")
        .equals(triple.headers().firstValue("content-type"))) {
      return "content-type " + triple.headers().firstValue("content-type").orElse("(none)") + ", grpc-gateway "
          + reference.headers().firstValue("content-type").orElse("(none)");
    }
    JsonNode expected;
    JsonNode actual;
    try {
      expected = c.has("tripleJson") ? c.get("tripleJson") : read(c, reference.body());
      actual = read(c, triple.body());
    } catch (JsonProcessingException e) {
      return "not JSON: " + triple.body();
    }
    // grpc-gateway writes an unset message field as null (protojson's EmitUnpopulated); Triple leaves it out, as
    // protobuf's JSON printers do: the same to a reader of the JSON, and the one difference in every body.
    expected = withoutNulls(expected);
    if (c.path("messageMayDiffer").asBoolean() && expected.isObject() && actual.isObject()) {
      expected = ((ObjectNode) expected.deepCopy()).without("message");
      actual = ((ObjectNode) actual.deepCopy()).without("message");
    }
    return expected.equals(SAME_VALUE, actual) ? null : "body " + triple.body() + ", grpc-gateway " + reference.body();
  }

  /**
   * The JSON of a body: one value, or for a case marked {@code lines} (a server stream) an array of the values of
   * its newline-delimited lines, each of which must end with its newline.
   */
  private static JsonNode read(JsonNode c, String body) throws JsonProcessingException {
    if (!c.path("lines").asBoolean()) {
      return JSON.readTree(body);
    }
    ArrayNode lines = JSON.createArrayNode();
    int start = 0;
    for (int end = body.indexOf('\n'); end >= 0; end = body.indexOf('\n', start)) {
      lines.add(JSON.readTree(body.substring(start, end)));
      start = end + 1;
    }
    if (start != body.length()) {
      throw new JsonProcessingException("a last line without its newline: " + body.substring(start)) {};
    }
    return lines;
  }

  /** {@code json} without the object members whose value is null, at any depth. */
  private static JsonNode withoutNulls(JsonNode json) {
    if (json.isObject()) {
      ObjectNode copy = JSON.createObjectNode();
      json.fields().forEachRemaining(member -> {
        if (!member.getValue().isNull()) {
          copy.set(member.getKey(), withoutNulls(member.getValue()));
        }
      });
      return copy;
    }
    if (json.isArray()) {
      com.fasterxml.jackson.databind.node.ArrayNode copy = JSON.createArrayNode();
      json.forEach(element -> copy.add(withoutNulls(element)));
      return copy;
    }
    return json;
  }

  /**
   * Whether {@code actual} holds everything in {@code expected}: every member of an expected object, with a
   * value that includes the expected one; anything else (arrays too) equal.
   */
  private static boolean includes(JsonNode actual, JsonNode expected) {
    if (!expected.isObject()) {
      return expected.equals(SAME_VALUE, actual);
    }
    if (!actual.isObject()) {
      return false;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> member = it.next();
      if (!actual.has(member.getKey()) || !includes(actual.get(member.getKey()), member.getValue())) {
        return false;
      }
    }
    return true;
  }

  private static HttpResponse<String> send(int port, JsonNode c) throws IOException, InterruptedException {
    HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.noBody();
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + c.get("path").asText()))
        .timeout(Duration.ofSeconds(20));
    if (c.has("body") || c.has("rawBody")) {
      String text = c.has("rawBody") ? c.get("rawBody").asText() : JSON.writeValueAsString(c.get("body"));
      body = HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8);
      request.header("Content-Type", c.path("contentType").asText("application/json"));
    }
    return http.send(request.method(c.get("method").asText(), body).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String describe(JsonNode c) {
    return c.get("method").asText() + " " + c.get("path").asText() + " (" + c.get("name").asText() + ")";
  }

  private static List<JsonNode> readCases() throws IOException {
    try (InputStream in = GrpcGatewayParityTest.class.getResourceAsStream("/rest/grpc-gateway-cases.json")) {
      List<JsonNode> list = new ArrayList<>();
      JSON.readTree(in).forEach(list::add);
      return list;
    }
  }
}
