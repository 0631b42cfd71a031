package io.triplerpc.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.sun.net.httpserver.HttpServer;
import io.triplerpc.CorsPolicy;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.conformance.browser.GreetReply;
import io.triplerpc.conformance.browser.GreetRequest;
import io.triplerpc.testing.GoTools;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real browser calls Triple: a page bundled from connect-web (npm, at test time, with esbuild) runs
 * in headless Chromium (Debian's {@code chromium}, driven by playwright-core), served from one origin,
 * and calls a Triple server on another, so that CORS is exercised: unary, server streaming and an
 * error, through Connect (JSON, binary, and GET) and gRPC-Web (binary and JSON). Skipped, saying why,
 * where Chromium or Node.js is missing.
 */
class BrowserTest {

  private static final Path BROWSER = Path.of("src/test/browser").toAbsolutePath();

  /** The page's service, as a Triple interface. */
  @TripleService(name = "triple.browser.v1.Greeter")
  public interface Greeter {

    @TripleMethod(name = "Greet", idempotent = true)
    GreetReply greet(GreetRequest request);

    @TripleMethod(name = "GreetMany")
    void greetMany(GreetRequest request, StreamObserver<GreetReply> replies);

    @TripleMethod(name = "Fail")
    GreetReply fail(GreetRequest request);
  }

  private static final class GreeterImpl implements Greeter {

    @Override
    public GreetReply greet(GreetRequest request) {
      String tenant = ServerContext.current().requestHeaders().get("x-tenant");
      return GreetReply.newBuilder().setMessage("Hello, " + request.getName() + "! (" + tenant + ")").build();
    }

    @Override
    public void greetMany(GreetRequest request, StreamObserver<GreetReply> replies) {
      for (int i = 1; i <= request.getCount(); i++) {
        replies.onNext(GreetReply.newBuilder().setMessage("#" + i + " " + request.getName()).build());
      }
      replies.onCompleted();
    }

    @Override
    public GreetReply fail(GreetRequest request) {
      throw Status.NOT_FOUND.withDescription("no " + request.getName() + " here").asException();
    }
  }

  @TempDir
  Path site;
  private TripleServer server;
  private HttpServer pages;

  @AfterEach
  void stop() throws InterruptedException {
    if (pages != null) {
      pages.stop(0);
    }
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void aPageOnAnotherOriginCallsThroughConnectAndGrpcWeb() throws Exception {
    Path chromium = GoTools.find("chromium");
    assumeTrue(chromium != null, "Chromium is not installed (apt-get install chromium); skipping the browser test");
    Path node = GoTools.find("node");
    Path npm = GoTools.find("npm");
    assumeTrue(node != null && npm != null, "Node.js is not installed; skipping the browser test");
    if (!Files.isDirectory(BROWSER.resolve("node_modules"))) {
      run(List.of(npm.toString(), "ci", "--no-audit", "--no-fund"), BROWSER);
    }
    run(List.of(BROWSER.resolve("node_modules/.bin/esbuild").toString(), "page.js", "--bundle", "--format=esm",
        "--outfile=" + site.resolve("bundle.js")), BROWSER);
    Files.copy(BROWSER.resolve("index.html"), site.resolve("index.html"));
    Files.write(site.resolve("descriptor.bin"), FileDescriptorSet.newBuilder()
        .addFile(withJsonNames(GreetRequest.getDescriptor().getFile())).build().toByteArray());

    pages = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    pages.createContext("/", exchange -> {
      Path file = site.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
      byte[] body = file.startsWith(site) && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
      String path = file.toString();
      exchange.getResponseHeaders().set("content-type", path.endsWith(".html") ? "text/html"
          : path.endsWith(".js") ? "text/javascript" : "application/octet-stream");
      exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
      if (body != null) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
      exchange.close();
    });
    pages.start();
    String origin = "http://127.0.0.1:" + pages.getAddress().getPort();
    server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .addService(Greeter.class, new GreeterImpl())
        .cors(CorsPolicy.builder().allowOrigins(origin).allowMethods("GET", "POST").allowRequestHeaders("x-tenant").build())
        .build()
        .start();

    String output = run(List.of(node.toString(), "drive.mjs",
        origin + "/index.html?server=http://127.0.0.1:" + server.port(), chromium.toString()), BROWSER);
    JsonNode results = new ObjectMapper().readTree(output.lines().reduce((first, last) -> last).orElseThrow());
    for (String transport : List.of("connect", "connect-get", "connect-proto", "grpc-web", "grpc-web-json")) {
      JsonNode result = results.path(transport);
      assertTrue(result.isObject(), () -> transport + ": " + output);
      assertEquals("Hello, Ada! (blue)", result.path("unary").asText(), () -> transport + ": " + result);
      assertEquals(List.of("#1 Grace", "#2 Grace", "#3 Grace"),
          List.of(new ObjectMapper().convertValue(result.path("stream"), String[].class)), () -> transport + ": " + result);
      // connect-es numbers codes as gRPC does: 5 is NOT_FOUND.
      assertEquals("5 no Edsger here", result.path("error").asText(), () -> transport + ": " + result);
    }
  }

  /**
   * The file's descriptor with each field's JSON name, which protoc gives plugins and protobuf-es reads,
   * but which Java's embedded descriptors leave out.
   */
  private static FileDescriptorProto withJsonNames(FileDescriptor file) {
    FileDescriptorProto.Builder proto = file.toProto().toBuilder();
    for (int m = 0; m < proto.getMessageTypeCount(); m++) {
      DescriptorProto.Builder message = proto.getMessageTypeBuilder(m);
      for (int f = 0; f < message.getFieldCount(); f++) {
        message.getFieldBuilder(f).setJsonName(file.getMessageTypes().get(m).getFields().get(f).getJsonName());
      }
    }
    return proto.build();
  }

  /** Runs {@code command} in {@code directory}; its standard output, or a failure with what it said. */
  private static String run(List<String> command, Path directory) throws IOException, InterruptedException {
    Path out = Files.createTempFile("browser-test", ".out");
    Path err = Files.createTempFile("browser-test", ".err");
    try {
      Process process = new ProcessBuilder(command).directory(directory.toFile())
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
