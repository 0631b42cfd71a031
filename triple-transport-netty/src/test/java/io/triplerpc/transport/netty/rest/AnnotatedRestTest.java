package io.triplerpc.transport.netty.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.Status;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * REST routes from JAX-RS and Spring Web annotations on plain Java service interfaces, with the JDK's
 * HTTP client against a real server: path variables (a regular expression and a catch-all among them),
 * query parameters with defaults and repeated values, headers, JSON bodies, and what is refused before
 * the service (a value of the wrong type, a missing required one, a path whose variable does not match
 * its expression). The same services answer gRPC as before.
 */
class AnnotatedRestTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final AtomicInteger calls = new AtomicInteger();
  private final Map<Long, JaxRsUsers.User> users = new ConcurrentHashMap<>();
  private TripleServer server;
  private HttpClient http;

  private final JaxRsUsers usersService = new JaxRsUsers() {
    @Override
    public User get(long id, List<String> tags) {
      calls.incrementAndGet();
      User user = users.get(id);
      if (user == null) {
        throw Status.NOT_FOUND.withDescription("No user " + id).asException();
      }
      return tags == null || tags.isEmpty() ? user : new User(user.id, user.name, tags);
    }

    @Override
    public User create(User user) {
      calls.incrementAndGet();
      User created = new User(users.size() + 1, user.name, user.tags);
      users.put(created.id, created);
      return created;
    }

    @Override
    public User rename(long id, String name) {
      calls.incrementAndGet();
      User renamed = new User(id, name, users.get(id).tags);
      users.put(id, renamed);
      return renamed;
    }

    @Override
    public boolean delete(long id) {
      calls.incrementAndGet();
      return users.remove(id) != null;
    }

    @Override
    public List<User> search(String name, int limit, String tenant) {
      calls.incrementAndGet();
      List<User> found = new ArrayList<>();
      for (User user : users.values()) {
        if (found.size() < limit && (name == null || user.name.startsWith(name))) {
          found.add(new User(user.id, user.name + "@" + tenant, user.tags));
        }
      }
      found.sort((a, b) -> Long.compare(a.id, b.id));
      return found;
    }
  };

  private final SpringOrders ordersService = new SpringOrders() {
    @Override
    public Order get(String id) {
      calls.incrementAndGet();
      return new Order(id, "book", State.OPEN);
    }

    @Override
    public Order place(Order order, String requestId) {
      calls.incrementAndGet();
      Order placed = new Order("o-1", order.item, State.OPEN);
      placed.requestId = requestId;
      return placed;
    }

    @Override
    public List<Order> list(State state, Integer max) {
      calls.incrementAndGet();
      return List.of(new Order("o-" + state, "max " + max, state));
    }

    @Override
    public Order ship(String id) {
      calls.incrementAndGet();
      return new Order(id, "book", State.SHIPPED);
    }

    @Override
    public String file(String path) {
      calls.incrementAndGet();
      return path;
    }

    @Override
    public int count(State state) {
      calls.incrementAndGet();
      return state.ordinal() + 40;
    }
  };

  @BeforeEach
  void start() {
    users.put(1L, new JaxRsUsers.User(1, "ada", List.of("admin")));
    users.put(2L, new JaxRsUsers.User(2, "alan", List.of()));
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(JaxRsUsers.class, usersService)
        .addService(SpringOrders.class, ordersService)
        .build().start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow();
    assertTrue(server.awaitTermination(TIMEOUT), "server terminated");
  }

  private record Answer(int status, JsonNode body, HttpResponse<String> response) {}

  private Answer send(String method, String target, String body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target))
        .timeout(TIMEOUT)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("content-type", "application/json");
    }
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), response.body().isEmpty() ? null : JSON.readTree(response.body()),
        response);
  }

  private static JsonNode json(String text) throws IOException {
    return JSON.readTree(text.replace('\'', '"'));
  }

  @Test
  void jaxRsPathQueryHeaderAndBody() throws Exception {
    Answer one = send("GET", "/users/1", null);
    assertEquals(200, one.status, String.valueOf(one.body));
    assertEquals(json("{'id':1,'name':'ada','tags':['admin']}"), one.body);

    Answer tagged = send("GET", "/users/1?tag=a&tag=b", null);
    assertEquals(json("['a','b']"), tagged.body.get("tags"));

    Answer created = send("POST", "/users", "{\"name\":\"grace\",\"tags\":[\"navy\"]}");
    assertEquals(200, created.status, String.valueOf(created.body));
    assertEquals(json("{'id':3,'name':'grace','tags':['navy']}"), created.body);

    Answer renamed = send("PUT", "/users/2?name=alonzo", null);
    assertEquals("alonzo", renamed.body.get("name").asText());

    Answer found = send("GET", "/users/search?name=a", null, "X-Tenant", "acme");
    assertEquals(json("[{'id':1,'name':'ada@acme','tags':['admin']},{'id':2,'name':'alonzo@acme','tags':[]}]"),
        found.body);
    Answer limited = send("GET", "/users/search?limit=1", null);
    assertEquals(1, limited.body.size(), "the @DefaultValue is 2; the query says 1: " + limited.body);

    Answer deleted = send("DELETE", "/users/3", null);
    assertEquals(200, deleted.status);
    assertTrue(deleted.body.asBoolean());
  }

  @Test
  void springPathVariablesParamsHeadersAndBody() throws Exception {
    assertEquals(json("{'id':'o-9','item':'book','state':'OPEN','requestId':null}"),
        send("GET", "/orders/o-9", null).body);

    Answer placed = send("POST", "/orders", "{\"item\":\"pen\"}", "X-Request-Id", "r-42");
    assertEquals(200, placed.status, String.valueOf(placed.body));
    assertEquals("r-42", placed.body.get("requestId").asText());
    assertEquals("pen", placed.body.get("item").asText());

    assertEquals("OPEN", send("GET", "/orders", null).body.get(0).get("state").asText(), "the defaultValue");
    Answer shipped = send("GET", "/orders?state=SHIPPED&max=3", null);
    assertEquals(json("[{'id':'o-SHIPPED','item':'max 3','state':'SHIPPED','requestId':null}]"), shipped.body);

    assertEquals("SHIPPED", send("POST", "/orders/o-5/ship", null).body.get("state").asText());
    assertEquals("docs/a b/c.txt", send("GET", "/orders/files/docs/a%20b/c.txt", null).body.asText());
    assertEquals(41, send("GET", "/orders/count?state=SHIPPED", null).body.asInt());
  }

  @Test
  void badValuesAndMissingOnesAre400AndUnmatchedExpressionsRouteNowhere() throws Exception {
    int before = calls.get();
    Answer notANumber = send("GET", "/users/ada", null);
    assertEquals(400, notANumber.status);
    assertEquals(3, notANumber.body.get("code").asInt());
    assertTrue(notANumber.body.get("message").asText().contains("path variable id"), notANumber.body.toString());

    Answer missing = send("GET", "/orders/count", null);
    assertEquals(400, missing.status);
    assertTrue(missing.body.get("message").asText().contains("query parameter state"), missing.body.toString());

    Answer badEnum = send("GET", "/orders/count?state=LOST", null);
    assertEquals(400, badEnum.status, String.valueOf(badEnum.body));

    Answer badBody = send("POST", "/users", "{\"name\":");
    assertEquals(400, badBody.status);

    // DELETE takes /users/{id: [0-9]+} only: the other methods of /users/{id} are what is allowed.
    Answer unmatched = send("DELETE", "/users/ada", null);
    assertEquals(405, unmatched.status);
    assertEquals("GET, PUT", unmatched.response.headers().firstValue("allow").orElse(null));
    assertEquals(before, calls.get(), "nothing reached the services");

    Answer notFound = send("GET", "/users/9", null);
    assertEquals(404, notFound.status);
    assertEquals(json("{'code':5,'message':'No user 9','details':[]}"), notFound.body);
  }

  @Test
  void theServicesAnswerGrpcAsBefore() throws Exception {
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      assertEquals("ada", client.proxy(JaxRsUsers.class).get(1, List.of()).name);
      assertEquals(SpringOrders.State.SHIPPED, client.proxy(SpringOrders.class).ship("o-1").state);
    }
  }

  /** A variable that spans segments before the end cannot be served: the server says so as it is built. */
  @jakarta.ws.rs.Path("/files")
  @io.triplerpc.TripleService(name = "rest.test.Broken")
  public interface Broken {
    @GET
    @Path("/{dir: .*}/{name}")
    String file(@PathParam("dir") String dir, @PathParam("name") String name);
  }

  /**
   * As a Dubbo 3.3 service declares it, with no {@code @TripleService}: variables that share a segment, and a
   * string body.
   */
  @Path("/files")
  public interface Files {
    @GET
    @Path("/{name}.{ext: [a-z]+}")
    String file(@PathParam("name") String name, @PathParam("ext") String ext);

    @jakarta.ws.rs.POST
    @Path("/notes")
    String note(String text);

    @GET
    @Path("/info/{name}")
    FileInfo info(@PathParam("name") String name);
  }

  /** A class that may have subclasses: Connect's JSON names it in an "@class" member, REST answers do not. */
  public static class FileInfo {
    public String name;
    public long size;
  }

  @Test
  void anInterfaceWithoutTripleServiceIsServedAsDubboServesIt() throws Exception {
    server.shutdownNow();
    assertTrue(server.awaitTermination(TIMEOUT), "server terminated");
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Files.class, new Files() {
          @Override
          public String file(String name, String ext) {
            calls.incrementAndGet();
            return name + "|" + ext;
          }

          @Override
          public String note(String text) {
            calls.incrementAndGet();
            return "<" + text + ">";
          }

          @Override
          public FileInfo info(String name) {
            FileInfo info = new FileInfo();
            info.name = name;
            info.size = name.length();
            return info;
          }
        })
        .build().start();
    assertEquals(json("'annual.report|pdf'"), send("GET", "/files/annual.report.pdf", null).body,
        "the first variable takes what it can, the expression the rest");
    assertEquals(404, send("GET", "/files/report.PDF", null).status, "the expression is matched");
    assertEquals(json("'<x>'"), send("POST", "/files/notes", "\"x\"").body, "a JSON string is its value");
    assertEquals("<{\"a\": [1, 2]}>", send("POST", "/files/notes", "{\"a\": [1, 2]}").body.asText(),
        "other JSON is its text");
    assertEquals(json("{'name':'a.txt','size':5}"), send("GET", "/files/info/a.txt", null).body,
        "plain JSON, no @class");
    int before = calls.get();
    Answer malformed = send("POST", "/files/notes", "not json");
    assertEquals(400, malformed.status, String.valueOf(malformed.body));
    assertEquals(before, calls.get(), "nothing reached the service");
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      assertEquals("a|b", client.proxy(Files.class).file("a", "b"), "served by its fully qualified name over gRPC");
    }
  }

  /** Spring conditions on the type and the methods of one path. */
  @org.springframework.web.bind.annotation.RequestMapping(path = "/feeds", params = "v=2")
  public interface Feeds {
    @org.springframework.web.bind.annotation.GetMapping
    String plain();

    @org.springframework.web.bind.annotation.GetMapping(params = "format")
    String formatted(@org.springframework.web.bind.annotation.RequestParam("format") String format);

    @org.springframework.web.bind.annotation.GetMapping(path = "/json", produces = "application/json")
    String json();
  }

  /** A produces value that is no media type. */
  public interface BadMedia {
    @org.springframework.web.bind.annotation.GetMapping(path = "/bad", produces = "json")
    String bad();
  }

  @Test
  void typeAndMethodConditionsPickTheMostSpecificMethodOrSayWhyNone() throws Exception {
    server.shutdownNow();
    assertTrue(server.awaitTermination(TIMEOUT), "server terminated");
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Feeds.class, new Feeds() {
          @Override
          public String plain() {
            return "plain";
          }

          @Override
          public String formatted(String format) {
            return "formatted " + format;
          }

          @Override
          public String json() {
            return "json";
          }
        })
        .build().start();
    assertEquals(json("'plain'"), send("GET", "/feeds?v=2", null).body);
    assertEquals(json("'formatted x'"), send("GET", "/feeds?v=2&format=x", null).body, "the one with more conditions");
    Answer withoutTypeParam = send("GET", "/feeds?format=x", null);
    assertEquals(400, withoutTypeParam.status, "the type's params apply to every method");
    assertTrue(withoutTypeParam.body.path("message").asText().contains("v=2"), withoutTypeParam.body.toString());
    assertEquals(json("'json'"), send("GET", "/feeds/json?v=2", null, "accept", "application/*").body);
    Answer html = send("GET", "/feeds/json?v=2", null, "accept", "text/html, application/json;q=0");
    assertEquals(406, html.status, String.valueOf(html.body));
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () ->
        TripleServer.builder().host("127.0.0.1").port(0).addService(BadMedia.class, () -> "x").build());
    assertTrue(refused.getMessage().contains("BadMedia.bad") && refused.getMessage().contains("json"),
        refused.getMessage());
  }

  @Test
  void annotationsThatCannotBeServedFailTheBuildNamingTheMethod() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () ->
        TripleServer.builder().host("127.0.0.1").port(0).addService(Broken.class, (name, ext) -> name).build());
    assertTrue(refused.getMessage().contains("Broken.file"), refused.getMessage());
    assertTrue(refused.getMessage().contains("must end the path"), refused.getMessage());
  }
}
