package io.triplerpc.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.testing.GoTools;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real browser runs a call through the docs page ({@code openApiDocs("/docs")}): headless Chromium
 * (Debian's {@code chromium}, driven by playwright-core, as in {@link BrowserTest}) opens Swagger UI on the
 * server's own port, expands a JAX-RS route's operation, presses "Try it out", fills its path parameter and
 * presses "Execute"; the service gets the value, and the page shows 200 and the JSON it answered. Skipped,
 * saying why, where Chromium or Node.js is missing.
 */
class DocsPageBrowserTest {

  private static final java.nio.file.Path BROWSER = java.nio.file.Path.of("src/test/browser").toAbsolutePath();

  /** A REST resource of plain Java types. */
  @TripleService(name = "docs.v1.Books")
  @Path("/v1/books")
  public interface Books {

    /** What the resource answers. */
    final class Book {
      public long id;
      public String title;
    }

    @GET
    @Path("/{id}")
    Book get(@PathParam("id") long id);
  }

  private TripleServer server;

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void swaggerUiOnTheServersPortRunsACall() throws Exception {
    java.nio.file.Path chromium = GoTools.find("chromium");
    assumeTrue(chromium != null, "Chromium is not installed (apt-get install chromium); skipping the browser test");
    java.nio.file.Path node = GoTools.find("node");
    java.nio.file.Path npm = GoTools.find("npm");
    assumeTrue(node != null && npm != null, "Node.js is not installed; skipping the browser test");
    if (!Files.isDirectory(BROWSER.resolve("node_modules"))) {
      run(List.of(npm.toString(), "ci", "--no-audit", "--no-fund"));
    }
    List<Long> asked = new CopyOnWriteArrayList<>();
    server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .addService(Books.class, id -> {
          asked.add(id);
          Books.Book book = new Books.Book();
          book.id = id;
          book.title = "Book " + id;
          return book;
        })
        .openApi("/openapi.json")
        .openApiDocs("/docs")
        .build()
        .start();

    String output = run(List.of(node.toString(), "docs.mjs", "http://127.0.0.1:" + server.port() + "/docs",
        chromium.toString(), "GET", "/v1/books/{id}", "id", "42"));
    JsonNode shown = new ObjectMapper().readTree(output.lines().reduce((first, last) -> last).orElseThrow());
    assertEquals("200", shown.path("status").asText(), output);
    JsonNode body = new ObjectMapper().readTree(shown.path("body").asText());
    assertEquals(42, body.path("id").asLong(), output);
    assertEquals("Book 42", body.path("title").asText(), output);
    assertEquals("http://127.0.0.1:" + server.port() + "/v1/books/42", shown.path("url").asText());
    assertEquals(List.of(42L), asked);
  }

  /** Runs {@code command} in the browser folder; its standard output, or a failure with what it said. */
  private static String run(List<String> command) throws IOException, InterruptedException {
    java.nio.file.Path out = Files.createTempFile("docs-browser-test", ".out");
    java.nio.file.Path err = Files.createTempFile("docs-browser-test", ".err");
    try {
      Process process = new ProcessBuilder(command).directory(BROWSER.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      boolean finished = process.waitFor(5, TimeUnit.MINUTES);
      if (!finished) {
        process.destroyForcibly();
      }
      String output = Files.readString(out, StandardCharsets.UTF_8);
      String errors = Files.readString(err, StandardCharsets.UTF_8);
      assertTrue(finished && process.exitValue() == 0,
          () -> String.join(" ", command) + " failed:\n" + output + "\n" + errors);
      return output;
    } finally {
      Files.delete(out);
      Files.delete(err);
    }
  }
}
