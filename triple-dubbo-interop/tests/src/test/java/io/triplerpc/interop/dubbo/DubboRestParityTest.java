package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.FormResource;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.FormResources;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.HttpMethodRequestService;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.HttpMethodRequests;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.ItemResource;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.ItemResources;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.MediaResource;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.MediaResources;
import io.triplerpc.interop.dubbo.api.rest.springmvc.ConditionService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.ConditionServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.DemoService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.DemoServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.SignupService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.SignupServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.TagService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.TagServices;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dubbo 3.3.6's Triple REST and Triple's REST serve the same annotated interfaces, and the same requests
 * get the same answers from both. The interfaces are in triple-dubbo-interop/api: a JAX-RS one and a
 * Spring Web one copied as they are from Dubbo's own REST samples (apache/dubbo-samples,
 * dubbo-samples-triple-rest-jaxrs and -springmvc), and one of each written in their style for what the
 * samples lack (defaults, repeated query parameters, headers, POJO bodies); one implementation of each
 * serves both sides, so a difference can only come from the frameworks. The Dubbo peer runs in its own
 * JVM with REST on its triple port ({@code --rest}); Triple serves the very same interfaces, none
 * annotated {@code @TripleService}.
 *
 * <p>Each case of {@link #CASES} goes to both over HTTP/1.1; statuses must be equal, and bodies equal as
 * JSON values (numbers by value, a null member the same as an absent one, a {@code text/plain} body the
 * same as a JSON string of its text). Where Triple answers otherwise by design (errors as
 * {@code google.rpc.Status}; a value of the wrong type is the client's error, 400, not Dubbo's 500), the
 * case states both answers, and each side is held to its own; docs/rest.md lists these.
 */
class DubboRestParityTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  /**
   * A request of the table.
   *
   * @param headers name, value, name, value...
   * @param difference null when both must answer alike
   */
  record Case(String name, String method, String target, String body, List<String> headers, Difference difference) {
    @Override
    public String toString() {
      return name;
    }

    Case header(String header, String value) {
      List<String> all = new ArrayList<>(headers);
      all.add(header);
      all.add(value);
      return new Case(name, method, target, body, all, difference);
    }

    /**
     * Each answers its own way: Dubbo with {@code dubboStatus} (and, unless null, that {@code message}),
     * Triple with {@code tripleStatus} (and, unless null, a {@code google.rpc.Status} of that code).
     */
    Case differs(int dubboStatus, String dubboMessage, int tripleStatus, Integer tripleCode, String why) {
      return new Case(name, method, target, body, headers,
          new Difference(dubboStatus, dubboMessage, tripleStatus, tripleCode, why));
    }
  }

  /**
   * An intended difference: Dubbo's answer (its status and the {@code message} of its
   * {@code {"message":...,"status":...}} body) and Triple's (its status and the {@code code} of its
   * {@code google.rpc.Status} body).
   */
  record Difference(int dubboStatus, String dubboMessage, int tripleStatus, Integer tripleCode, String why) {}

  private static Case get(String name, String target) {
    return new Case(name, "GET", target, null, List.of(), null);
  }

  private static Case request(String name, String method, String target, String body) {
    return new Case(name, method, target, body, List.of(), null);
  }

  private static final String FORM = "application/x-www-form-urlencoded";
  private static final int INVALID_ARGUMENT = 3;
  private static final int NOT_FOUND = 5;
  private static final int UNIMPLEMENTED = 12;
  private static final String OVERLOADS = "/" + OverloadService.class.getName();

  static final List<Case> CASES = List.of(
      // The JAX-RS sample (HttpMethodRequestService): every HTTP method, a query parameter, a JSON body.
      get("jaxrs GET with a query parameter", "/HttpRequestMethod/sayGet?name=world"),
      get("jaxrs GET without the optional query parameter", "/HttpRequestMethod/sayGet"),
      get("jaxrs GET with a percent-encoded query value", "/HttpRequestMethod/sayGet?name=d%C3%BCbbo%20rest"),
      request("jaxrs POST with a JSON string body", "POST", "/HttpRequestMethod/sayPost", "\"world\""),
      request("jaxrs PUT", "PUT", "/HttpRequestMethod/sayPut?name=world", null),
      request("jaxrs DELETE", "DELETE", "/HttpRequestMethod/sayDelete?name=world", null),
      request("jaxrs PATCH", "PATCH", "/HttpRequestMethod/sayPatch?name=world", null),
      request("jaxrs HEAD", "HEAD", "/HttpRequestMethod/sayHead?name=world", null),
      request("jaxrs OPTIONS", "OPTIONS", "/HttpRequestMethod/sayOptions?name=world", null),
      get("jaxrs a known path with another method", "/HttpRequestMethod/sayPut?name=world")
          .differs(405, "Request method 'GET' not supported", 405, UNIMPLEMENTED,
              "errors are google.rpc.Status JSON"),
      get("jaxrs an unknown path", "/HttpRequestMethod/nothing")
          .differs(404, "Invoker not found", 404, NOT_FOUND, "errors are google.rpc.Status JSON"),
      request("jaxrs a body that is not JSON", "POST", "/HttpRequestMethod/sayPost", "world")
          .differs(500, "Error decoding json", 400, INVALID_ARGUMENT, "a malformed body is the client's error"),

      // In the JAX-RS sample's style (ItemResource): path variables, defaults, repeated values, headers, POJOs.
      get("jaxrs path variable, query value and header", "/items/apple?quantity=3").header("X-Price", "1.50"),
      get("jaxrs @DefaultValue and a missing header", "/items/apple"),
      get("jaxrs a repeated query parameter", "/items/all/names?name=pear&name=apple&name=fig"),
      get("jaxrs a repeated query parameter and a boolean", "/items/all/names?name=pear&name=apple&sorted=true"),
      get("jaxrs a boolean as 1", "/items/all/names?name=pear&name=apple&sorted=1"),
      get("jaxrs no value of a repeated query parameter", "/items/all/names"),
      request("jaxrs POST a POJO body with defaults", "POST", "/items/new",
          "{\"name\":\"pear\",\"quantity\":2,\"price\":0.75}"),
      request("jaxrs POST a POJO body, a query value and a header", "POST", "/items/new?times=3",
          "{\"name\":\"pear\",\"quantity\":2,\"price\":0.75}").header("X-Tag", "ripe"),
      request("jaxrs PUT path variables, one with an expression", "PUT", "/items/pear/quantity/12", null),
      request("jaxrs DELETE with a boolean answer", "DELETE", "/items/apple", null),
      request("jaxrs DELETE answering false", "DELETE", "/items/pear", null),
      get("jaxrs a query value of the wrong type", "/items/apple?quantity=many")
          .differs(500, null, 400, INVALID_ARGUMENT, "a value that does not parse is the client's error"),
      get("jaxrs a header value of the wrong type", "/items/apple").header("X-Price", "cheap")
          .differs(500, null, 400, INVALID_ARGUMENT, "a value that does not parse is the client's error"),

      // The Spring Web sample (DemoService), as it is.
      get("spring @RequestMapping without a method, GET", "/demo/hello?name=world"),
      request("spring @RequestMapping without a method, POST", "POST", "/demo/hello?name=world", null),
      get("spring a missing required @RequestParam", "/demo/hello")
          .differs(400, "Missing argument 'name' for method parameter of type [class java.lang.String]", 400,
              INVALID_ARGUMENT, "errors are google.rpc.Status JSON"),
      get("spring a path without a leading slash", "/demo/get/param?id=7"),
      get("spring @PathVariable", "/demo/get/variable/abc"),
      get("spring a percent-encoded path variable", "/demo/get/variable/a%20b"),
      get("spring two query parameters", "/demo/get/muchParam?id=1&name=n"),
      get("spring two path variables", "/demo/get/muchVariable/1/n"),
      get("spring variables sharing a segment, with expressions", "/demo/get/reg/dubbo-3.3.6.jar"),
      get("spring a segment its expressions do not match", "/demo/get/reg/Dubbo-3.3.6.jar")
          .differs(404, "Invoker not found", 404, NOT_FOUND, "errors are google.rpc.Status JSON"),
      request("spring @RequestBody String from a JSON object", "POST", "/demo/post/body", "{\"name\":\"world\"}"),
      request("spring @RequestBody String from a JSON string", "POST", "/demo/post/body", "\"world\""),
      request("spring POST with a query parameter", "POST", "/demo/post/param?id=5", null),
      request("spring POST with a path variable", "POST", "/demo/post/variable/9", null),
      request("spring PUT", "PUT", "/demo/put/update/4", null),
      request("spring DELETE", "DELETE", "/demo/delete/4", null),
      request("spring PATCH with a path variable and a body", "PATCH", "/demo/patch/4", "{\"name\":\"x\"}"),
      get("spring int query parameters", "/demo/primitive?a=1&b=2"),
      get("spring long and Long", "/demo/primitiveLong?a=40&b=2"),
      get("spring byte and Long", "/demo/primitiveByte?a=1&b=2"),
      request("spring query parameters and an int body", "POST", "/demo/primitiveShort?a=1&b=2", "3"),
      request("spring a list of POJOs in and out", "POST", "/demo/post/list",
          "[{\"id\":1,\"name\":\"a\",\"age\":3},{\"id\":2,\"name\":\"b\"}]"),
      get("spring an int query value of the wrong type", "/demo/primitive?a=x&b=2")
          .differs(500, "For input string: \"x\"", 400, INVALID_ARGUMENT,
              "a value that does not parse is the client's error"),
      request("spring a malformed JSON body", "POST", "/demo/post/list", "[{bad")
          .differs(500, "Error decoding json", 400, INVALID_ARGUMENT, "a malformed body is the client's error"),

      // In the Spring sample's style (TagService): a default, an optional repeated parameter, a header.
      get("spring a repeated @RequestParam and a default", "/tags/list?tag=a&tag=b&tag=c"),
      get("spring a repeated @RequestParam, a value and a header", "/tags/list?tag=a&tag=b&tag=c&limit=3")
          .header("X-Prefix", "#"),
      get("spring no value of an optional @RequestParam", "/tags/list"),
      get("spring a mapping without a path, at the type's path", "/tags?tag=a")
          .differs(404, "Invoker not found", 200, null, "Spring maps it to the type's path; Dubbo to the method's name"),
      get("spring a mapping without a path, at the method's name", "/tags/tags?tag=a")
          .differs(200, null, 404, NOT_FOUND, "Spring maps it to the type's path; Dubbo to the method's name"),

      // Mapping conditions (ConditionService, MediaResource): which of the mappings of one path a request maps to.
      get("spring params a=v", "/conditions/mode?mode=fast"),
      get("spring params a!=v, another value", "/conditions/mode?mode=slow"),
      get("spring params a!=v, no value", "/conditions/mode"),
      get("spring params a, present", "/conditions/flag?debug=1"),
      get("spring params !a, absent", "/conditions/flag"),
      get("spring params a and b, both present", "/conditions/page?limit=5&page=2"),
      get("spring params a and b, one missing", "/conditions/page?limit=5")
          .differs(400, "Unsatisfied query parameter conditions", 400, INVALID_ARGUMENT, "errors are google.rpc.Status JSON"),
      get("spring headers a=v", "/conditions/version").header("X-Version", "2"),
      get("spring headers !a", "/conditions/version"),
      get("spring headers met by no mapping", "/conditions/version").header("X-Version", "3")
          .differs(404, "Invoker not found", 404, NOT_FOUND, "errors are google.rpc.Status JSON"),
      request("spring consumes met", "POST", "/conditions/body", "\"x\""),
      request("spring consumes unmet", "POST", "/conditions/body", "x").header("content-type", "text/plain")
          .differs(415, "Content type 'text/plain' not supported", 415, INVALID_ARGUMENT, "errors are google.rpc.Status JSON"),
      get("spring produces met by a wildcard Accept", "/conditions/produced").header("accept", "application/*"),
      get("spring produces unmet", "/conditions/produced").header("accept", "text/html")
          .differs(406, "Could not find acceptable representation", 406, INVALID_ARGUMENT, "errors are google.rpc.Status JSON"),
      request("jaxrs @Consumes met", "POST", "/media/json", "\"x\""),
      request("jaxrs @Consumes unmet", "POST", "/media/json", "x").header("content-type", "text/plain")
          .differs(415, "Content type 'text/plain' not supported", 415, INVALID_ARGUMENT, "errors are google.rpc.Status JSON"),
      get("jaxrs the type's @Produces met", "/media/any").header("accept", "application/json"),
      get("jaxrs the type's @Produces unmet", "/media/any").header("accept", "text/plain")
          .differs(406, "Could not find acceptable representation", 406, INVALID_ARGUMENT, "errors are google.rpc.Status JSON"),

      // Form bodies (FormResource, SignupService): JAX-RS @FormParam; Spring's @RequestParam, query then form.
      request("jaxrs @FormParam fields", "POST", "/forms/login", "user=ann&remember=true").header("content-type", FORM),
      request("jaxrs @FormParam with its default", "POST", "/forms/login", "user=ann").header("content-type", FORM),
      request("jaxrs @FormParam boolean as 0", "POST", "/forms/login", "user=ann&remember=0").header("content-type", FORM),
      request("jaxrs @FormParam percent-encoded and +", "POST", "/forms/login", "user=d%C3%BCbbo+rest&remember=true")
          .header("content-type", FORM),
      request("spring @RequestParam from a form body", "POST", "/signup/new", "name=ann&tag=a&tag=b")
          .header("content-type", FORM),
      request("spring @RequestParam from the query and a form body", "POST", "/signup/new?tag=q", "name=ann&tag=a")
          .header("content-type", FORM),
      request("spring @RequestParam from the query, no body", "POST", "/signup/new?name=bo&tag=x", null),

      // Java overloads (OverloadService): each overload its own route, whatever the others of its name.
      get("spring overload without parameters", "/overloads/greet"),
      get("spring overload of one path variable", "/overloads/greet/ada"),
      get("spring overload of a path variable and an int", "/overloads/greet/ada/3"),
      get("spring overload of a primitive long", "/overloads/find/21"),
      get("spring overload of a boxed Long", "/overloads/find?id=21"),
      get("spring overload of a boxed Long, absent", "/overloads/find"),
      request("spring overload of a POJO body, another result type", "POST", "/overloads/find",
          "{\"name\":\"pear\",\"quantity\":2,\"price\":0.75}"),
      get("spring overload's int path variable of the wrong type", "/overloads/greet/ada/many")
          .differs(500, "For input string: \"many\"", 400, INVALID_ARGUMENT,
              "a value that does not parse is the client's error"),
      // At the RPC path, a JSON body names no overload: Dubbo refuses every call of an overloaded name there;
      // Triple takes the overload of the body's number of arguments, and refuses a body that several fit.
      request("overloads at their RPC path, a JSON array of two", "POST", OVERLOADS + "/greet", "[\"ada\", 2]")
          .differs(500, "Ambiguous mapping for '" + OVERLOADS + "/greet'", 200, null,
              "Triple chooses an overload by the JSON body's number of arguments"),
      request("overloads at their RPC path, one argument that fits three", "POST", OVERLOADS + "/find", "21")
          .differs(500, "Ambiguous mapping for '" + OVERLOADS + "/find'", 400, null,
              "Triple refuses a JSON body that fits several overloads, naming them (a Connect error)"));

  private static DubboProcess dubbo;
  private static TripleServer triple;
  private static HttpClient http;

  @BeforeAll
  static void start() throws Exception {
    dubbo = DubboProcess.provider("--rest");
    triple = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(HttpMethodRequestService.class, new HttpMethodRequests())
        .addService(ItemResource.class, new ItemResources())
        .addService(DemoService.class, new DemoServices())
        .addService(TagService.class, new TagServices())
        .addService(ConditionService.class, new ConditionServices())
        .addService(MediaResource.class, new MediaResources())
        .addService(FormResource.class, new FormResources())
        .addService(SignupService.class, new SignupServices())
        .addService(OverloadService.class, new OverloadServices())
        .build().start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
  }

  @AfterAll
  static void stop() throws Exception {
    if (triple != null) {
      triple.shutdownNow();
      triple.awaitTermination(TIMEOUT);
    }
    if (dubbo != null) {
      dubbo.close();
    }
  }

  static Stream<Case> cases() {
    return CASES.stream();
  }

  @Test
  void theTableHasEnoughCasesOfEveryKind() {
    assertEquals(89, CASES.size(), "the cases docs/rest.md counts");
    Set<String> names = new HashSet<>();
    Set<String> methods = new HashSet<>();
    for (Case c : CASES) {
      assertTrue(names.add(c.name), "two cases named " + c.name);
      methods.add(c.method);
    }
    assertEquals(Set.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"), methods);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tripleAnswersAsDubboDoes(Case c) throws Exception {
    Answer fromDubbo = send(dubbo.port(), c);
    Answer fromTriple = send(triple.port(), c);
    String both = "\n  Dubbo:  " + fromDubbo + "\n  Triple: " + fromTriple;
    if (c.difference == null) {
      assertEquals(fromDubbo.status, fromTriple.status, "status" + both);
      assertTrue(sameValue(fromDubbo.body, fromTriple.body), "body" + both);
      return;
    }
    Difference d = c.difference;
    both += "\n  (an intended difference: " + d.why + ")";
    assertEquals(d.dubboStatus, fromDubbo.status, "Dubbo's status" + both);
    if (d.dubboMessage != null) {
      // A method that produces text/plain answers its errors' JSON as text/plain too.
      JsonNode error = fromDubbo.body.isTextual() ? JSON.readTree(fromDubbo.body.asText()) : fromDubbo.body;
      assertEquals(d.dubboMessage, error.path("message").asText(), "Dubbo's message" + both);
    }
    assertEquals(d.tripleStatus, fromTriple.status, "Triple's status" + both);
    if (d.tripleCode != null) {
      assertEquals(d.tripleCode, fromTriple.body.path("code").asInt(), "Triple's google.rpc.Status code" + both);
      assertTrue(fromTriple.body.path("message").isTextual(), "Triple's google.rpc.Status message" + both);
    }
  }

  /** An answer: its status and its body as a JSON value (text/plain as a string, none as null). */
  private record Answer(int status, JsonNode body, String contentType) {
    @Override
    public String toString() {
      return status + " " + contentType + " " + body;
    }
  }

  private static Answer send(int port, Case c) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + c.target))
        .timeout(TIMEOUT)
        .method(c.method, c.body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(c.body));
    if (c.body != null && c.headers.stream().noneMatch("content-type"::equalsIgnoreCase)) {
      request.header("content-type", "application/json");
    }
    for (int i = 0; i < c.headers.size(); i += 2) {
      request.header(c.headers.get(i), c.headers.get(i + 1));
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    String contentType = response.headers().firstValue("content-type").orElse("");
    String text = response.body();
    JsonNode body;
    if (text.isEmpty()) {
      body = null;
    } else if (contentType.startsWith("application/json")) {
      body = JSON.readTree(text);
    } else {
      body = TextNode.valueOf(text);
    }
    return new Answer(response.statusCode(), body, contentType);
  }

  /** Equal as JSON values: numbers by value, a member whose value is null the same as no member. */
  private static boolean sameValue(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    return withoutNulls(a).equals((x, y) -> x.isNumber() && y.isNumber()
        ? x.decimalValue().compareTo(y.decimalValue()) : x.equals(y) ? 0 : 1, withoutNulls(b));
  }

  private static JsonNode withoutNulls(JsonNode node) {
    JsonNode copy = node.deepCopy();
    strip(copy);
    return copy;
  }

  private static void strip(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (Iterator<Map.Entry<String, JsonNode>> members = object.fields(); members.hasNext(); ) {
        Map.Entry<String, JsonNode> member = members.next();
        if (member.getValue().isNull()) {
          members.remove();
        } else {
          strip(member.getValue());
        }
      }
    } else if (node.isArray()) {
      node.forEach(DubboRestParityTest::strip);
    }
  }
}
