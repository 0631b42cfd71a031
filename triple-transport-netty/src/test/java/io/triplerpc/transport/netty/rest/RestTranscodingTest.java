package io.triplerpc.transport.netty.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.rest.v1.Book;
import io.triplerpc.transport.netty.rest.v1.Genre;
import io.triplerpc.transport.netty.rest.v1.GetBookRequest;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * REST over google.api.http rules (rest.proto's BookService), with the JDK's HTTP client against a real
 * server: each kind of rule (path variables one- and multi-segment, **, a verb, additional bindings,
 * body {@code *} and a field, response_body), query parameters of every kind, errors as
 * google.rpc.Status JSON under grpc-gateway's HTTP statuses, and requests refused before the service
 * (400, 404, 405 with Allow, 413, 415) that never reach it. gRPC and Connect calls of the same methods
 * are served as before.
 */
class RestTranscodingTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final Library library = new Library();
  private TripleServer server;
  private HttpClient http;

  @BeforeEach
  void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0).maxInboundMessageSize(16 * 1024)
        .addService(BookService.class, library).build().start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
    library.books.put("shelves/1/books/1", Book.newBuilder().setName("shelves/1/books/1").setTitle("Dune")
        .setGenre(Genre.FICTION).setPages(412).addTags("sand").build());
    library.books.put("shelves/1/books/2", Book.newBuilder().setName("shelves/1/books/2").setTitle("SPQR")
        .setGenre(Genre.HISTORY).setPages(608).build());
    library.books.put("shelves/2/books/3", Book.newBuilder().setName("shelves/2/books/3").setTitle("Emma")
        .setGenre(Genre.FICTION).build());
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow();
    assertTrue(server.awaitTermination(TIMEOUT), "server terminated");
  }

  private record Answer(int status, JsonNode body, HttpResponse<String> response) {}

  private Answer send(String method, String target, String body, String contentType) throws IOException,
      InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target))
        .timeout(TIMEOUT)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      request.header("content-type", contentType);
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), response.body().isEmpty() ? null : JSON.readTree(response.body()),
        response);
  }

  private Answer get(String target) throws IOException, InterruptedException {
    return send("GET", target, null, null);
  }

  private static JsonNode json(String text) throws IOException {
    return JSON.readTree(text.replace('\'', '"'));
  }

  @Test
  void aMultiSegmentVariableNamesTheResource() throws Exception {
    Answer answer = get("/v1/shelves/1/books/1");
    assertEquals(200, answer.status);
    assertEquals("application/json", answer.response.headers().firstValue("content-type").orElse(null));
    // Every field without presence is written, as grpc-gateway's marshaler does; int64 as a string.
    assertEquals(json("{'name':'shelves/1/books/1','title':'Dune','genre':'FICTION','pages':'412','tags':['sand']}"),
        answer.body);
  }

  @Test
  void anErrorIsGoogleRpcStatusUnderItsHttpStatus() throws Exception {
    Answer answer = get("/v1/shelves/1/books/9");
    assertEquals(404, answer.status);
    assertEquals(json("{'code':5,'message':'No book shelves/1/books/9','details':[]}"), answer.body);
  }

  @Test
  void queryParametersFillTheFieldsThePathLeaves() throws Exception {
    Answer answer = get("/v1/shelves/1/books?pageSize=5&genres=HISTORY&genres=1");
    assertEquals(200, answer.status);
    assertEquals(2, answer.body.get("books").size(), answer.body.toString());
    Answer one = get("/v1/shelves/1/books?page_size=1");
    assertEquals(1, one.body.get("books").size(), one.body.toString());
    Answer history = get("/v1/shelves/1/books?genres=HISTORY");
    assertEquals("SPQR", history.body.get("books").get(0).get("title").asText());
    assertEquals(1, history.body.get("books").size());
  }

  @Test
  void anAdditionalBindingServesTheSameMethod() throws Exception {
    Answer answer = get("/v1/books?genres=FICTION");
    assertEquals(200, answer.status);
    assertEquals(2, answer.body.get("books").size(), answer.body.toString());
    assertEquals("", answer.body.get("nextPageToken").asText());
  }

  @Test
  void aBodyFieldTakesTheBodyAndTheQueryTheRest() throws Exception {
    Answer created = send("POST", "/v1/shelves/7/books?validateOnly=true",
        "{\"title\":\"Kim\",\"genre\":\"FICTION\",\"pages\":\"300\",\"unknownField\":1}", "application/json");
    assertEquals(200, created.status, String.valueOf(created.body));
    assertEquals("shelves/7/books/4", created.body.get("name").asText());
    assertEquals("Kim", created.body.get("title").asText());
    assertEquals(3, library.books.size(), "validate_only came from the query: nothing stored");

    Answer invalid = send("POST", "/v1/shelves/7/books", "{}", "application/json");
    assertEquals(400, invalid.status);
    assertEquals(json("{'code':3,'message':'A book has a title','details':[]}"), invalid.body);
  }

  @Test
  void theWholeBodyIsTheRequestAndThePathOverridesIt() throws Exception {
    Answer updated = send("PATCH", "/v1/shelves/1/books/2",
        "{\"name\":\"shelves/9/books/9\",\"title\":\"SPQR, revised\",\"published\":\"2015-10-20T00:00:00Z\"}",
        "application/json");
    assertEquals(200, updated.status, String.valueOf(updated.body));
    assertEquals("shelves/1/books/2", updated.body.get("name").asText());
    assertEquals("2015-10-20T00:00:00Z", updated.body.get("published").asText());
    assertEquals("SPQR, revised", library.books.get("shelves/1/books/2").getTitle());
  }

  @Test
  void deleteAnswersAnEmptyMessage() throws Exception {
    Answer deleted = send("DELETE", "/v1/shelves/2/books/3", null, null);
    assertEquals(200, deleted.status);
    assertEquals(json("{}"), deleted.body);
    assertEquals(404, send("DELETE", "/v1/shelves/2/books/3", null, null).status);
  }

  @Test
  void aVerbAndAResponseBodyField() throws Exception {
    Answer archived = send("POST", "/v1/shelves/1:archive", "{\"reason\":\"full\"}", "application/json");
    assertEquals(200, archived.status, String.valueOf(archived.body));
    assertTrue(archived.body.isArray(), "the body is the books field: " + archived.body);
    assertEquals(2, archived.body.size());
    assertEquals(404, send("POST", "/v1/shelves/1:burn", "{}", "application/json").status);
  }

  @Test
  void everyKindOfQueryValueIsParsedAsGrpcGatewayParsesIt() throws Exception {
    Answer answer = get("/v1/inspect/42/shelf%20label?big=9007199254740993&ubig=18446744073709551615&small=7"
        + "&flag=t&ratio=0.5&weight=1.5&raw=aGk%3D&genre=HISTORY&numbers=1&numbers=2&genres=1&genres=HISTORY"
        + "&labels%5Ba%5D=b&maybe=x&at=2024-01-02T03:04:05Z&wait=1m30s&mask=title,book.name&wrapped=5"
        + "&nested.depth=3&ignored.unknown=1");
    assertEquals(200, answer.status, String.valueOf(answer.body));
    assertEquals(json("{'id':42,'nested':{'label':'shelf label','depth':3},'big':'9007199254740993',"
        + "'ubig':'18446744073709551615','small':7,'flag':true,'ratio':0.5,'weight':1.5,'raw':'aGk=',"
        + "'genre':'HISTORY','numbers':[1,2],'genres':['FICTION','HISTORY'],'labels':{'a':'b'},'maybe':'x',"
        + "'at':'2024-01-02T03:04:05Z','wait':'90s','mask':'title,book.name','wrapped':5}"), answer.body);
  }

  @Test
  void aValueOfTheWrongTypeIs400NamingItsParameterAndReachesNoService() throws Exception {
    int before = library.calls.get();
    Answer path = get("/v1/inspect/forty-two/x");
    assertEquals(400, path.status);
    assertEquals(3, path.body.get("code").asInt());
    assertTrue(path.body.get("message").asText().contains("id"), path.body.toString());
    Answer query = get("/v1/inspect/1/x?flag=maybe");
    assertEquals(400, query.status);
    assertTrue(query.body.get("message").asText().contains("flag"), query.body.toString());
    Answer enumValue = get("/v1/inspect/1/x?genre=POETRY");
    assertEquals(400, enumValue.status);
    assertTrue(enumValue.body.get("message").asText().contains("genre"), enumValue.body.toString());
    Answer malformed = send("POST", "/v1/shelves/1/books", "{\"title\":", "application/json");
    assertEquals(400, malformed.status);
    assertEquals(before, library.calls.get(), "no call reached the service");
  }

  @Test
  void unknownPathsWrongMethodsMediaTypesAndSizesAreRefusedBeforeTheService() throws Exception {
    Answer unknown = get("/v1/nothing/here");
    assertEquals(404, unknown.status);
    assertEquals(json("{'code':5,'message':'Not Found','details':[]}"), unknown.body);

    Answer wrongMethod = send("PUT", "/v1/shelves/1/books/1", "{}", "application/json");
    assertEquals(405, wrongMethod.status);
    assertEquals("DELETE, GET, PATCH", wrongMethod.response.headers().firstValue("allow").orElse(null));

    Answer wrongType = send("POST", "/v1/shelves/1/books", "title=x", "application/x-www-form-urlencoded");
    assertEquals(415, wrongType.status);

    Answer tooLarge = send("POST", "/v1/shelves/1/books", "{\"title\":\"" + "x".repeat(20_000) + "\"}",
        "application/json");
    assertEquals(413, tooLarge.status);
    assertEquals(8, tooLarge.body.get("code").asInt(), tooLarge.body.toString());

    // The JDK's client refuses to send a malformed escape: written by hand.
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout((int) TIMEOUT.toMillis());
      socket.getOutputStream().write(("GET /v1/shelves/1/books/%zz HTTP/1.1\r\nhost: 127.0.0.1\r\n"
          + "connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(response.startsWith("HTTP/1.1 400 "), response);
      assertTrue(response.contains("\"code\":3"), response);
    }
    assertEquals(0, library.calls.get(), "no call reached the service");
  }

  @Test
  void oneSegmentVariablesAreDecodedAndMultiSegmentOnesKeepTheirSlashes() throws Exception {
    Answer files = get("/v1/files/a/b%2Fc/d%20e");
    assertEquals(200, files.status);
    assertEquals("a/b%2Fc/d e", files.body.get("path").asText());
    Answer shelf = get("/v1/shelves/a%2Fb/books");
    assertEquals(200, shelf.status);
  }

  @Test
  void http2ServesTheSameRoutes() throws Exception {
    HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(TIMEOUT).build();
    HttpResponse<String> first = h2.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/v1/shelves/1/books/2")).timeout(TIMEOUT).build(),
        HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> second = h2.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/v1/shelves/1/books/1")).timeout(TIMEOUT).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, first.statusCode());
    assertEquals(HttpClient.Version.HTTP_2, second.version(), "the connection was upgraded to h2c");
    assertEquals("Dune", JSON.readTree(second.body()).get("title").asText());
  }

  @Test
  void grpcAndConnectCallsOfTheSameMethodsAreServedAsBefore() throws Exception {
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      Book book = client.proxy(BookService.class).getBook(GetBookRequest.newBuilder().setName("shelves/1/books/2").build());
      assertEquals("SPQR", book.getTitle());
    }
    Answer connect = send("POST", "/triple.resttest.BookService/GetBook", "{\"name\":\"shelves/1/books/1\"}",
        "application/json");
    assertEquals(200, connect.status);
    // Connect's JSON: fields at their defaults are left out, unlike REST's.
    assertEquals(json("{'name':'shelves/1/books/1','title':'Dune','genre':'FICTION','pages':'412','tags':['sand']}"),
        connect.body);
    assertEquals(404, send("POST", "/triple.resttest.BookService/Nope", "{}", "application/json").status);
  }
}
