package io.triplerpc.transport.netty.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleServer;
import io.triplerpc.internal.rest.SwaggerUiPage;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.http.Curl.Answer;
import io.triplerpc.transport.netty.rest.JaxRsUsers;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The docs page ({@code openApiDocs("/docs")}) with the real curl over HTTP/1.1 and HTTP/2: the webjar's
 * own Swagger UI page and files, with their content types, Triple's configuration pointing at the server's
 * documents, and nothing outside the webjar's folder; the build refuses it without the document or the
 * webjar. (A real browser runs a call through it in triple-conformance's DocsPageBrowserTest.)
 */
class OpenApiDocsPageTest {

  @TempDir
  Path dir;
  private TripleServer server;

  @BeforeEach
  void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl())
        .addService(JaxRsUsers.class, unused())
        .openApi("/openapi.json")
        .openApiDocs("/docs")
        .build().start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "server terminated");
    }
  }

  /** The JAX-RS service's routes put a service in the documents; its calls are not made here. */
  private static JaxRsUsers unused() {
    return (JaxRsUsers) Proxy.newProxyInstance(JaxRsUsers.class.getClassLoader(), new Class<?>[] {JaxRsUsers.class},
        (proxy, method, args) -> {
          throw new UnsupportedOperationException(method.getName());
        });
  }

  private Answer curl(String... args) throws Exception {
    String[] withUrl = args.clone();
    withUrl[withUrl.length - 1] = "http://127.0.0.1:" + server.port() + args[args.length - 1];
    return new Curl(dir).run(withUrl);
  }

  /** The version of Swagger UI the webjar holds. */
  private static String webjarVersion() throws Exception {
    Properties pom = new Properties();
    ClassLoader loader = OpenApiDocsPageTest.class.getClassLoader();
    try (InputStream in = loader.getResourceAsStream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
      pom.load(in);
    }
    return pom.getProperty("version");
  }

  /** The webjar's file {@code name}, read as the server should serve it. */
  private static String webjarFile(String name) throws Exception {
    ClassLoader loader = OpenApiDocsPageTest.class.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(
        "META-INF/resources/webjars/swagger-ui/" + webjarVersion() + "/" + name)) {
      assertNotNull(in, name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void thePageIsTheWebjarsOwnWithABaseAtTheVersionsFolder(String version) throws Exception {
    for (String path : new String[] {"/docs", "/docs/", "/docs/index.html"}) {
      Answer page = curl(version, path);
      assertEquals(200, page.status(), page::toString);
      assertEquals("text/html; charset=utf-8", page.header("content-type"));
      String expected = webjarFile("index.html").replace("<head>",
          "<head><base href=\"/docs/" + webjarVersion() + "/\">");
      assertEquals(expected, page.body());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void theWebjarsFilesAreServedWithTheirContentTypes(String version) throws Exception {
    Answer bundle = curl(version, "/docs/swagger-ui-bundle.js");
    assertEquals(200, bundle.status(), bundle::toString);
    assertEquals("text/javascript; charset=utf-8", bundle.header("content-type"));
    assertEquals(webjarFile("swagger-ui-bundle.js"), bundle.body());
    Answer css = curl(version, "/docs/swagger-ui.css?v=1");
    assertEquals("text/css; charset=utf-8", css.header("content-type"));
    assertEquals(webjarFile("swagger-ui.css"), css.body());
    Answer icon = curl(version, "-I", "/docs/favicon-32x32.png");
    assertEquals(200, icon.status(), icon::toString);
    assertEquals("image/png", icon.header("content-type"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void theVersionsFilesAreImmutableAndThePageAndItsConfigurationAreNot(String version) throws Exception {
    String folder = "/docs/" + webjarVersion() + "/";
    Answer css = curl(version, folder + "swagger-ui.css");
    assertEquals(200, css.status(), css::toString);
    assertEquals(webjarFile("swagger-ui.css"), css.body());
    assertEquals("public, max-age=31536000, immutable", css.header("cache-control"));
    assertEquals("public, max-age=31536000, immutable", curl(version, "-I", folder + "favicon-32x32.png")
        .header("cache-control"));
    for (String path : new String[] {"/docs", "/docs/", folder, "/docs/swagger-initializer.js",
        folder + "swagger-initializer.js", "/docs/swagger-ui.css"}) {
      Answer answer = curl(version, path);
      assertEquals(200, answer.status(), path + ": " + answer);
      assertEquals("no-cache", answer.header("cache-control"), path);
    }
    assertEquals(404, curl(version, "/docs/0.0.1/swagger-ui.css").status(), "another version's folder");
  }

  @Test
  void aRestRouteUnderTheDocsFolderServesWhatThePageHasNot() throws Exception {
    server.shutdownNow();
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(DocsFolderRoutes.class, new DocsFolderRoutes() {
          @Override
          public String note(String id) {
            return "note " + id;
          }

          @Override
          public String file(String name) {
            return "route " + name;
          }
        })
        .openApi("/openapi.json")
        .openApiDocs("/docs")
        .build().start();
    Answer note = curl("/docs/notes/7");
    assertEquals(200, note.status(), note::toString);
    assertEquals("\"note 7\"", note.body());
    assertEquals("\"route anything.js\"", curl("/docs/anything.js").body());
    // The page's own files are the page's, whatever a route's template could take.
    Answer css = curl("/docs/swagger-ui.css");
    assertEquals("text/css; charset=utf-8", css.header("content-type"));
    assertEquals(webjarFile("swagger-ui.css"), css.body());
    assertEquals(webjarFile("swagger-ui.css"), curl("/docs/" + webjarVersion() + "/swagger-ui.css").body());
    assertEquals("text/html; charset=utf-8", curl("/docs/index.html").header("content-type"));
    // No route takes a path of two segments under the folder: the page's 404.
    Answer neither = curl("/docs/a/b.js");
    assertEquals(404, neither.status(), neither::toString);
    assertEquals("text/plain; charset=utf-8", neither.header("content-type"));
  }

  @Test
  void theConfigurationListsTheServersDocumentsTheWholeFirst() throws Exception {
    Answer initializer = curl("/docs/swagger-initializer.js");
    assertEquals(200, initializer.status(), initializer::toString);
    assertEquals("text/javascript; charset=utf-8", initializer.header("content-type"));
    String body = initializer.body();
    assertTrue(body.contains("urls: [{\"url\":\"/openapi.json\",\"name\":\"All services\"},"
        + "{\"url\":\"/openapi/rest.test.Users.json\",\"name\":\"rest.test.Users\"}]"), body);
    assertTrue(body.contains("validatorUrl: null"), body);
    // Each document it names is served.
    assertEquals(200, curl("/openapi/rest.test.Users.json").status());
  }

  @ParameterizedTest
  @ValueSource(strings = {"/docs/../openapi.json", "/docs/%2e%2e/openapi.json", "/docs/.%2e/x", "/docs/a/b.js",
      "/docs/..", "/docs/.hidden", "/docs/missing.js", "/docs//etc/passwd", "/docs/swagger-ui.css%00",
      "/docs/../../../maven/org.webjars/swagger-ui/pom.properties", "/docs/%2Fswagger-ui.css"})
  void nothingOutsideTheWebjarsFolderIsServed(String path) throws Exception {
    Answer answer = curl("--path-as-is", path);
    assertEquals(404, answer.status(), answer::toString);
    assertEquals("text/plain; charset=utf-8", answer.header("content-type"));
  }

  @Test
  void theBuildRefusesADocsPageWithoutTheDocumentOrOverAnotherEndpoint() {
    TripleServer.Builder withoutDocument = TripleServer.builder().openApiDocs("/docs");
    IllegalStateException noDocument = assertThrows(IllegalStateException.class, withoutDocument::build);
    assertTrue(noDocument.getMessage().contains("openApi(\"/openapi.json\")"), noDocument.getMessage());
    TripleServer.Builder hiding = TripleServer.builder().openApi("/docs/openapi.json").openApiDocs("/docs");
    IllegalArgumentException hidden = assertThrows(IllegalArgumentException.class, hiding::build);
    assertTrue(hidden.getMessage().contains("/docs/openapi.json"), hidden.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TripleServer.builder().openApiDocs("/docs/"));
    assertThrows(IllegalArgumentException.class, () -> TripleServer.builder().openApiDocs("docs"));
  }

  @Test
  void withoutTheWebjarTheMessageNamesIt() {
    // A class loader that sees the JDK only, as an application without the webjar does.
    ClassLoader withoutWebjar = new ClassLoader(null) {};
    IllegalStateException missing = assertThrows(IllegalStateException.class,
        () -> SwaggerUiPage.load(withoutWebjar, "/docs", Map.of("/openapi.json", "All services")));
    assertTrue(missing.getMessage().contains("org.webjars:swagger-ui"), missing.getMessage());
    assertTrue(missing.getMessage().contains("openApiDocs(\"/docs\")"), missing.getMessage());
  }
}
