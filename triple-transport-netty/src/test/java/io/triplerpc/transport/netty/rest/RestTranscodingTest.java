package io.triplerpc.transport.netty.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.rest.v1.Book;
import io.triplerpc.transport.netty.rest.v1.Genre;
import io.triplerpc.transport.netty.rest.v1.GetBookRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * REST over google.api.http rules (rest.proto's BookService), with the JDK's HTTP client against a real
 * server: each kind of rule (path variables one- and multi-segment, **, a verb, additional bindings,
 * body {@code *} and a field, response_body), query parameters of every kind, errors as
 * google.rpc.Status JSON under grpc-gateway's HTTP statuses, and requests refused before the service
 * (400, 404, 405 with Allow, 413, 415) that never reach it. A server-streaming method answers with
 * newline-delimited JSON, chunked on HTTP/1.1 and in DATA frames on HTTP/2, held back by a reader that does not
 * read and cancelled by one that goes away. gRPC and Connect calls of the same methods are served as before.
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
  void aJsonSuffixedMediaTypeIsJsonAndOthersAre415() throws Exception {
    for (String type : new String[] {"application/vnd.triple.book+json", "APPLICATION/merge-patch+JSON; charset=utf-8"}) {
      Answer created = send("POST", "/v1/shelves/7/books?validateOnly=true", "{\"title\":\"Kim\"}", type);
      assertEquals(200, created.status, type + ": " + created.body);
      assertEquals("Kim", created.body.get("title").asText());
    }
    for (String type : new String[] {"text/json", "application/jsonx", "application/+json", "application/a/b+json"}) {
      assertEquals(415, send("POST", "/v1/shelves/7/books", "{\"title\":\"Kim\"}", type).status, type);
    }
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

  /** Sends {@code target} as an HTTP/1.1 GET on {@code socket}; the response's head lines, lower case. */
  private static List<String> requestHead(Socket socket, BufferedReader in, String target) throws IOException {
    socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    List<String> head = new ArrayList<>();
    for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
      head.add(line.toLowerCase(Locale.ROOT));
    }
    return head;
  }

  /** The lines of a chunked body whose every chunk is one line of JSON, up to the last chunk. */
  private static List<String> chunkedLines(BufferedReader in) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String size = in.readLine(); size != null && !size.equals("0"); size = in.readLine()) {
      char[] chunk = new char[Integer.parseInt(size, 16)];
      int read = 0;
      while (read < chunk.length) {
        int n = in.read(chunk, read, chunk.length - read);
        assertTrue(n > 0, "the chunk ended early");
        read += n;
      }
      String text = new String(chunk);
      assertTrue(text.endsWith("\n"), "a chunk is one line: " + text);
      lines.add(text.substring(0, text.length() - 1));
      assertEquals("", in.readLine(), "the chunk's CRLF");
    }
    assertEquals("", in.readLine(), "the last chunk's end, with no trailer");
    return lines;
  }

  @Test
  void aServerStreamIsOneLineOfJsonPerMessageChunkedOnHttp1() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout((int) TIMEOUT.toMillis());
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
      List<String> head = requestHead(socket, in, "/v1/shelves/4/books:watch?count=3&titleSize=2");
      assertEquals("http/1.1 200 ok", head.get(0));
      assertTrue(head.contains("transfer-encoding: chunked"), head.toString());
      assertTrue(head.contains("content-type: application/json"), head.toString());
      List<String> lines = chunkedLines(in);
      assertEquals(3, lines.size(), lines.toString());
      for (int i = 1; i <= 3; i++) {
        assertEquals(json("{'result':{'name':'shelves/4/books/" + i + "','title':'tt','genre':'GENRE_UNSPECIFIED',"
            + "'pages':'" + i + "','tags':[]}}"), JSON.readTree(lines.get(i - 1)));
      }
      // The connection is kept for the next request; a stream of no message is a whole response with no body.
      List<String> next = requestHead(socket, in, "/v1/shelves/4/books:watch?count=0");
      assertEquals("http/1.1 200 ok", next.get(0));
      assertTrue(next.contains("content-length: 0"), next.toString());
    }
  }

  @Test
  void aServerStreamGoesInDataFramesOnHttp2() throws Exception {
    HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(TIMEOUT).build();
    URI uri = URI.create("http://127.0.0.1:" + server.port() + "/v1/shelves/9/books:watch?count=2");
    h2.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> stream = h2.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(HttpClient.Version.HTTP_2, stream.version(), "the connection was upgraded to h2c");
    assertEquals(200, stream.statusCode());
    assertEquals("application/json", stream.headers().firstValue("content-type").orElse(null));
    String[] lines = stream.body().split("\n", -1);
    assertEquals(3, lines.length, stream.body());
    assertEquals("shelves/9/books/2", JSON.readTree(lines[1]).path("result").path("name").asText());
    assertEquals("", lines[2], "the last line ends with its newline");
  }

  @Test
  void aReaderThatDoesNotReadHoldsTheStreamBackUntilItReads() throws Exception {
    int count = 1000;
    try (Socket socket = new Socket()) {
      socket.setReceiveBufferSize(16 * 1024);
      socket.connect(new java.net.InetSocketAddress("127.0.0.1", server.port()));
      socket.setSoTimeout((int) TIMEOUT.toMillis());
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(("GET /v1/shelves/1/books:watch?count=" + count + "&titleSize=16384 HTTP/1.1\r\n"
          + "host: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      assertTrue(library.watchStalled.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the service never saw isReady false");
      assertTrue(library.watched.get() < count, library.watched + " books sent to a reader that reads nothing");
      String status = in.readLine();
      assertEquals("HTTP/1.1 200 OK", status);
      for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
        // The head's other lines.
      }
      assertEquals(count, chunkedLines(in).size(), "onReady resumed the stream to its end");
      assertEquals(count, library.watched.get());
    }
  }

  @Test
  void aClientThatGoesAwayCancelsTheStreamOnHttp1AndHttp2() throws Exception {
    try (Socket socket = new Socket()) {
      socket.setReceiveBufferSize(16 * 1024);
      socket.connect(new java.net.InetSocketAddress("127.0.0.1", server.port()));
      socket.getOutputStream().write(("GET /v1/shelves/1/books:watch?count=1000000&titleSize=16384 HTTP/1.1\r\n"
          + "host: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      assertTrue(library.watchStalled.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the stream never filled the socket");
    }
    assertTrue(library.watchCancelled.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "HTTP/1.1: not cancelled");

    Library second = new Library();
    TripleServer h2Server = TripleServer.builder().host("127.0.0.1").port(0).addService(BookService.class, second)
        .build().start();
    try {
      HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(TIMEOUT).build();
      String base = "http://127.0.0.1:" + h2Server.port();
      h2.send(HttpRequest.newBuilder(URI.create(base + "/v1/shelves/1/books:watch?count=0")).timeout(TIMEOUT).build(),
          HttpResponse.BodyHandlers.discarding());
      HttpResponse<InputStream> stream = h2.send(HttpRequest.newBuilder(
          URI.create(base + "/v1/shelves/1/books:watch?count=1000000&titleSize=16384")).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      assertEquals(HttpClient.Version.HTTP_2, stream.version());
      try (InputStream body = stream.body()) {
        assertTrue(body.read() == '{', "the first line");
      }
      assertTrue(second.watchCancelled.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "HTTP/2: not cancelled");
      assertFalse(second.watched.get() >= 1000000, "the stream ran to its end");
    } finally {
      h2Server.shutdownNow();
      assertTrue(h2Server.awaitTermination(TIMEOUT), "server terminated");
    }
  }
}
