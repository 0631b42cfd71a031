package io.triplerpc.interop.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.interop.rest.v1.LibraryService;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The OpenAPI 3.1 documents a server serves of its REST routes ({@code openApi("/openapi.json")}): of
 * library.proto's every kind of google.api.http rule, and of JAX-RS and Spring Web interfaces of plain Java
 * types, read by swagger-parser with no message; every route an operation, with its parameters where they
 * bind, its body and response schemas, and google.rpc.Status for errors.
 */
class OpenApiDocumentTest {

  /** A JAX-RS service of plain Java types. */
  @TripleService(name = "docs.Members")
  @Path("/members")
  public interface Members {
    /** A plain value class. */
    final class Member {
      public long id;
      public String name;
      public LocalDate joined;
      public List<String> roles;
      public Map<String, Integer> scores;
      public Level level;
    }

    enum Level { BRONZE, GOLD }

    @GET
    @Path("/{id: [0-9]+}")
    Member get(@PathParam("id") long id);

    @POST
    CompletableFuture<Member> join(Member member);

    @GET
    List<Member> list(@QueryParam("level") Level level, @QueryParam("limit") @DefaultValue("20") int limit);
  }

  /** A Spring Web service. */
  @TripleService(name = "docs.Files")
  @RequestMapping("/files")
  public interface Files {
    @GetMapping("/{*path}")
    String read(@PathVariable("path") String path, @RequestParam(value = "offset", defaultValue = "0") long offset);
  }

  /** A Spring Web service with Java overloads, each its own route and operation. */
  @TripleService(name = "docs.Pets")
  @RequestMapping("/pets")
  public interface Pets {
    @GetMapping("/count")
    long count();

    @GetMapping("/count/{kind}")
    long count(@PathVariable("kind") String kind);

    @GetMapping("/count/{kind}/{age}")
    long count(@PathVariable("kind") String kind, @PathVariable("age") int age);
  }

  private static TripleServer server;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(LibraryService.class, new LibraryServiceImpl())
        .addService(Members.class, new Members() {
          @Override
          public Member get(long id) {
            return new Member();
          }

          @Override
          public CompletableFuture<Member> join(Member member) {
            return CompletableFuture.completedFuture(member);
          }

          @Override
          public List<Member> list(Level level, int limit) {
            return List.of();
          }
        })
        .addService(Files.class, (path, offset) -> path)
        .addService(Pets.class, new Pets() {
          @Override
          public long count() {
            return 3;
          }

          @Override
          public long count(String kind) {
            return kind.length();
          }

          @Override
          public long count(String kind, int age) {
            return age;
          }
        })
        .openApi("/openapi.json")
        .build().start();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  private static String get(String path) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
        + path)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), path + ": " + response.body());
    assertEquals("application/json", response.headers().firstValue("content-type").orElse(null));
    return response.body();
  }

  private static OpenAPI parse(String json) {
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    SwaggerParseResult result = new OpenAPIV3Parser().readContents(json, null, options);
    assertEquals(List.of(), result.getMessages(), "swagger-parser's messages");
    assertNotNull(result.getOpenAPI());
    assertEquals("3.1.0", result.getOpenAPI().getOpenapi());
    return result.getOpenAPI();
  }

  @Test
  void theWholeDocumentIsValidAndHasEveryRoute() throws Exception {
    OpenAPI api = parse(get("/openapi.json"));
    TreeSet<String> operations = new TreeSet<>();
    api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
        operations.add(method + " " + path + " " + operation.getOperationId())));
    assertTrue(operations.contains("GET /v1/shelves/{name.shelves}/books/{name.books} LibraryService_GetBook"),
        operations.toString());
    assertTrue(operations.contains("POST /v1/shelves/{name.shelves}:archive LibraryService_ArchiveShelf"),
        operations.toString());
    assertTrue(operations.contains("GET /members/{id} Members_get"), operations.toString());
    assertTrue(operations.contains("POST /members Members_join"), operations.toString());
    assertTrue(operations.contains("GET /files/{path} Files_read"), operations.toString());
    assertTrue(api.getComponents().getSchemas().containsKey("google.rpc.Status"));
    // /v1/{book.name=shelves/*/books/*} is /v1/{name=...}'s path to OpenAPI: one path, named by the first.
    assertTrue(operations.contains("PATCH /v1/shelves/{name.shelves}/books/{name.books} LibraryService_UpdateBook"),
        operations.toString());
    assertTrue(operations.stream().noneMatch(operation -> operation.contains("{book.name}")), operations.toString());
  }

  /**
   * Overloads are operations of their own, their ids the method's and their parameter types' simple names;
   * the one without parameters keeps the method's. Every id in the document is distinct.
   */
  @Test
  void eachOverloadIsAnOperationOfItsOwnId() throws Exception {
    OpenAPI api = parse(get("/openapi.json"));
    assertEquals("Pets_count", api.getPaths().get("/pets/count").getGet().getOperationId());
    assertEquals("Pets_count_String", api.getPaths().get("/pets/count/{kind}").getGet().getOperationId());
    assertEquals("Pets_count_String_int", api.getPaths().get("/pets/count/{kind}/{age}").getGet().getOperationId());
    List<String> ids = new java.util.ArrayList<>();
    api.getPaths().forEach((path, item) -> item.readOperations().forEach(operation -> ids.add(operation.getOperationId())));
    assertEquals(ids.size(), new TreeSet<>(ids).size(), ids.toString());
    // Each route calls its own overload.
    assertEquals("3", get("/pets/count").trim());
    assertEquals("6", get("/pets/count/lizard").trim());
    assertEquals("7", get("/pets/count/lizard/7").trim());
  }

  @Test
  void parametersBindWhereTheRouteTakesThem() throws Exception {
    OpenAPI api = parse(get("/openapi.json"));
    Operation getMember = api.getPaths().get("/members/{id}").getGet();
    Parameter id = getMember.getParameters().get(0);
    assertEquals("path", id.getIn());
    assertEquals("^[0-9]+$", id.getSchema().getPattern());
    Operation list = api.getPaths().get("/members").getGet();
    assertEquals(List.of("query level", "query limit"), list.getParameters().stream()
        .map(p -> p.getIn() + " " + p.getName()).toList());
    assertEquals(20, ((Number) list.getParameters().get(1).getSchema().getDefault()).intValue());
    Operation join = api.getPaths().get("/members").getPost();
    assertNotNull(join.getRequestBody().getContent().get("application/json").getSchema());
    // A variable of literals and wildcards is a parameter per wildcard: a client percent-encodes slashes.
    PathItem book = api.getPaths().get("/v1/shelves/{name.shelves}/books/{name.books}");
    assertEquals(List.of("path name.shelves", "path name.books", "query fields", "query genre"),
        book.getGet().getParameters().stream().map(p -> p.getIn() + " " + p.getName()).toList());
    assertEquals("^.*$", api.getPaths().get("/v1/files/{path}").getGet().getParameters().get(0).getSchema()
        .getPattern());
  }

  @Test
  void theProtoCommentsDescribeTagsOperationsParametersAndSchemas() throws Exception {
    OpenAPI api = parse(get("/openapi.json"));
    assertEquals("The shelves and books of a library: a method for every kind of rule. Its comments are the OpenAPI"
        + " document's\ndescriptions.", api.getTags().stream()
        .filter(tag -> tag.getName().equals("triple.rest.v1.LibraryService")).findFirst().orElseThrow().getDescription());
    Operation getShelf = api.getPaths().get("/v1/shelves/{shelf}").getGet();
    assertEquals("Gets a shelf.", getShelf.getSummary(), "the first of two paragraphs");
    assertEquals("A single int64 path variable.", getShelf.getDescription());
    assertEquals(List.of("The shelf's number.", "Whether the answer lists the shelf's books."),
        getShelf.getParameters().stream().map(Parameter::getDescription).toList(), "path and query parameters");
    Operation createBook = api.getPaths().get("/v1/shelves/{parent.shelves}/books").getPost();
    assertEquals(null, createBook.getSummary(), "one paragraph is a description alone");
    assertEquals("One field as the body, the rest from the path and the query.", createBook.getDescription());
    io.swagger.v3.oas.models.media.Schema<?> title = (io.swagger.v3.oas.models.media.Schema<?>) api.getComponents()
        .getSchemas().get("triple.rest.v1.Book").getProperties().get("title");
    assertEquals("The title, as the cover prints it.", title.getDescription(), "a trailing comment");
    assertEquals("What a book is about.", api.getComponents().getSchemas().get("triple.rest.v1.Genre").getDescription());
    assertEquals(null, api.getComponents().getSchemas().get("triple.rest.v1.Book").getDescription(),
        "no comment, no description");
  }

  @Test
  void eachServiceHasItsOwnDocument() throws Exception {
    OpenAPI members = parse(get("/openapi/docs.Members.json"));
    assertEquals(new TreeSet<>(List.of("/members", "/members/{id}")), new TreeSet<>(members.getPaths().keySet()));
    OpenAPI library = parse(get("/openapi/triple.rest.v1.LibraryService.json"));
    assertTrue(library.getPaths().keySet().stream().allMatch(path -> path.startsWith("/v1/")),
        library.getPaths().keySet().toString());
  }
}
