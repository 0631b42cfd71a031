package io.triplerpc.transport.netty.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.HttpGetHandler;
import io.triplerpc.PeerInfo;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.http.Curl.Answer;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Plain HTTP GET endpoints ({@code TripleServer.Builder.httpGet}) on a server's own port, with the real
 * curl over HTTP/1.1, HTTP/2 with prior knowledge, an h2c upgrade and TLS, and the JDK's HTTP client:
 * answered by their handler off the event loop, HEAD with the length alone, other methods 405, and
 * everything else on the port (gRPC, curl's JSON calls, other paths) served as without them.
 */
class HttpGetEndpointTest {

  private static final String ECHO = "/triple.test.EchoService/echo";
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("hello").build();

  @TempDir
  Path dir;
  private TripleServer server;
  /** What the handlers of {@link #start} saw, in order. */
  private final List<HttpGetHandler.Request> seen = new CopyOnWriteArrayList<>();
  /** The threads they ran on. */
  private final List<String> threads = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "server terminated");
    }
  }

  /** An echo server with {@code customize}'s additions. */
  private void start(UnaryOperator<TripleServer.Builder> customize) {
    server = customize.apply(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl())).build().start();
  }

  /** A handler that answers what it saw: the request target and its Accept header. */
  private HttpGetHandler describing() {
    return request -> {
      seen.add(request);
      threads.add(Thread.currentThread().getName());
      String text = request.target() + " accept=" + request.headers().get("accept");
      return HttpGetHandler.Response.ok(TEXT, text.getBytes(StandardCharsets.UTF_8));
    };
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  private Answer curl(String... args) throws Exception {
    return new Curl(dir).run(args);
  }

  /** Whether the last response's status line in {@code answer} is HTTP/2's. */
  private static boolean overHttp2(Answer answer) {
    String last = "";
    for (String line : answer.headers().split("\r\n")) {
      if (line.startsWith("HTTP/")) {
        last = line;
      }
    }
    return last.startsWith("HTTP/2 ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2", "--http2-prior-knowledge"})
  void getIsAnsweredByItsHandlerOverEveryHttpVersion(String version) throws Exception {
    start(builder -> builder.httpGet("/status", describing()));
    Answer answer = curl(version, "-H", "accept: text/x-test", url("/status?verbose=1"));
    assertEquals(200, answer.status(), answer::toString);
    assertEquals(TEXT, answer.header("content-type"));
    assertEquals("/status?verbose=1 accept=text/x-test", answer.body());
    assertEquals(Integer.toString(answer.body().length()), answer.header("content-length"), answer::headers);
    assertEquals(!version.equals("--http1.1"), overHttp2(answer), answer::headers);
    PeerInfo peer = seen.get(0).peer();
    assertEquals(version.equals("--http1.1") ? PeerInfo.HTTP_1_1 : PeerInfo.HTTP_2_CLEARTEXT,
        peer.applicationProtocol());
    assertFalse(peer.isTls());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2", "--http2-prior-knowledge"})
  void headAnswersTheLengthWithoutTheBody(String version) throws Exception {
    start(builder -> builder.httpGet("/status", describing()));
    Answer answer = curl(version, "-I", url("/status"));
    assertEquals(200, answer.status(), answer::toString);
    assertEquals(Integer.toString("/status accept=*/*".length()), answer.header("content-length"), answer::headers);
    assertEquals(TEXT, answer.header("content-type"));
    // curl -I writes the head where the body would go.
    assertFalse(answer.body().contains("accept="), answer::body);
    assertEquals(1, seen.size());
  }

  @Test
  void anHttp1ConnectionStaysInStepAfterAHead() throws Exception {
    start(builder -> builder.httpGet("/status", describing()));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<String> head = http.send(HttpRequest.newBuilder(URI.create(url("/status")))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, head.statusCode());
    assertEquals("", head.body());
    assertEquals(List.of("/status accept=null".length() + ""), head.headers().allValues("content-length"));
    HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(url("/status?again"))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals("/status?again accept=null", get.body());
    assertEquals(seen.get(0).peer().remoteAddress(), seen.get(1).peer().remoteAddress(), "one connection");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void aLargeBodyArrivesWhole(String version) throws Exception {
    byte[] large = new byte[3 * 1024 * 1024 + 7];
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) ('a' + i % 26);
    }
    start(builder -> builder.httpGet("/large", request -> HttpGetHandler.Response.ok(TEXT, large)));
    Answer answer = curl(version, url("/large"));
    assertEquals(200, answer.status(), answer::headers);
    assertEquals(new String(large, StandardCharsets.US_ASCII), answer.body());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void otherMethodsGet405WithTheMethodsAllowed(String version) throws Exception {
    start(builder -> builder.httpGet("/status", describing()));
    for (List<String> method : List.of(
        List.of("-X", "POST", "-H", "content-type: application/json", "--data-binary", "{}"),
        List.of("-X", "DELETE"),
        List.of("-X", "OPTIONS", "-H", "origin: http://app.example.com", "-H", "access-control-request-method: GET"))) {
      List<String> args = new java.util.ArrayList<>(List.of(version));
      args.addAll(method);
      args.add(url("/status"));
      Answer answer = curl(args.toArray(String[]::new));
      assertEquals(405, answer.status(), answer::toString);
      assertEquals("GET, HEAD", answer.header("allow"), answer::headers);
      assertTrue(answer.body().contains("use GET or HEAD"), answer::body);
    }
    assertTrue(seen.isEmpty(), "the handler saw none of them");
  }

  @Test
  void aHandlerThatFailsGets500AndItsConnectionGoesOn() throws Exception {
    start(builder -> builder
        .httpGet("/broken", request -> {
          seen.add(request);
          throw new IllegalStateException("secret detail");
        })
        .httpGet("/null", request -> null)
        .httpGet("/status", describing()));
    // curl runs the three on one HTTP/1.1 connection (curl 7.88 cannot reuse a prior-knowledge one).
    Answer answer = curl("--http1.1", url("/broken"), url("/null"), url("/status"));
    assertEquals(200, answer.status(), answer::toString);
    assertTrue(answer.headers().contains("HTTP/1.1 500"), answer::headers);
    assertEquals("The handler of /broken failed\nThe handler of /null failed\n/status accept=*/*", answer.body());
    assertFalse(answer.body().contains("secret"), "the exception stays in the server's log");
    assertEquals(seen.get(0).peer().remoteAddress(), seen.get(1).peer().remoteAddress(), "one connection");

    // The JDK's client upgrades its first request to h2c, then sends the others as streams of that connection.
    seen.clear();
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
    for (String path : List.of("/broken", "/null", "/status")) {
      HttpResponse<String> response =
          http.send(HttpRequest.newBuilder(URI.create(url(path))).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(path.equals("/status") ? 200 : 500, response.statusCode(), path);
      assertEquals(HttpClient.Version.HTTP_2, response.version(), path);
    }
    assertEquals(seen.get(0).peer().remoteAddress(), seen.get(1).peer().remoteAddress(), "one connection");
  }

  @Test
  void theHandlerRunsOnTheServiceExecutorNotTheEventLoop() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    // One event loop for every connection: a handler blocking it would block the call below too.
    start(builder -> builder.ioThreads(1).httpGet("/slow", request -> {
      threads.add(Thread.currentThread().getName());
      entered.countDown();
      if (!release.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("never released");
      }
      return HttpGetHandler.Response.ok(TEXT, "done".getBytes(StandardCharsets.UTF_8));
    }));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    CompletableFuture<HttpResponse<String>> slow = http.sendAsync(
        HttpRequest.newBuilder(URI.create(url("/slow"))).build(), HttpResponse.BodyHandlers.ofString());
    assertTrue(entered.await(10, TimeUnit.SECONDS), "the handler started");
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      EchoService echo = client.proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
      assertEquals("hello", echo.echo(HELLO).getMessage(), "a call goes through while the handler waits");
    } finally {
      release.countDown();
    }
    HttpResponse<String> response = slow.get(10, TimeUnit.SECONDS);
    assertEquals(200, response.statusCode());
    assertEquals("done", response.body());
    assertTrue(threads.get(0).startsWith("triple-service-"), threads.toString());
  }

  @Test
  void withADirectExecutorTheHandlerStillRunsOffTheEventLoop() throws Exception {
    start(builder -> builder.directExecutor().httpGet("/status", describing()));
    Answer answer = curl("--http2-prior-knowledge", url("/status"));
    assertEquals(200, answer.status(), answer::toString);
    assertTrue(threads.get(0).startsWith("ForkJoinPool.commonPool"), threads.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2"})
  void aTlsServerServesItOverTlsWithEitherAlpnProtocol(String version) throws Exception {
    start(builder -> builder.tls(TlsConfig.builder()
        .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey()).build())
        .httpGet("/status", describing()));
    Answer answer = curl(version, "--cacert", TestCertificates.caCertificate().toString(),
        "https://127.0.0.1:" + server.port() + "/status");
    assertEquals(200, answer.status(), answer::toString);
    assertEquals("/status accept=*/*", answer.body());
    PeerInfo peer = seen.get(0).peer();
    assertTrue(peer.isTls());
    assertEquals(version.equals("--http2") ? PeerInfo.HTTP_2 : PeerInfo.HTTP_1_1, peer.applicationProtocol());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void callsAndOtherPathsOnThePortAreServedAsBefore(String version) throws Exception {
    start(builder -> builder.httpGet("/status", describing()));
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      assertEquals("hello", client.proxy(EchoService.class).echo(HELLO).getMessage());
    }
    Answer json = curl(version, "-H", "content-type: application/json", "--data-binary", "{\"message\":\"curl\"}",
        url(ECHO));
    assertEquals(200, json.status(), json::toString);
    assertTrue(json.body().startsWith("{\"message\":\"curl\""), json::body);
    for (String other : List.of("/status/", "/statuses", "/Status", "/status2?x")) {
      Answer answer = curl(version, url(other));
      Answer unknown = curl(version, url("/no-such-path"));
      assertEquals(unknown.status(), answer.status(), other + ": " + answer);
    }
    assertTrue(seen.isEmpty(), "the handler saw none of them: " + seen);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void withoutAHandlerThePathIsUnknownAsAnyOther(String version) throws Exception {
    start(builder -> builder);
    Answer metrics = curl(version, url("/metrics"));
    Answer unknown = curl(version, url("/no-such-path"));
    assertEquals(unknown.status(), metrics.status(), metrics::toString);
    assertEquals(unknown.body().replace("/no-such-path", "/metrics"), metrics.body());
    Answer connectGet = curl(version, url("/metrics?encoding=json&message=%7B%7D"));
    assertEquals(404, connectGet.status(), connectGet::toString);
  }

  @Test
  void pathsAreCheckedAsTheyAreAddedAndWhenTheServerIsBuilt() {
    HttpGetHandler handler = describing();
    for (String bad : List.of("metrics", "/", "", "/metrics?x=1", "/a#b", "/a b", "/caf\u00e9")) {
      assertThrows(IllegalArgumentException.class, () -> TripleServer.builder().httpGet(bad, handler), bad);
    }
    TripleServer.Builder twice = TripleServer.builder().httpGet("/metrics", handler);
    IllegalArgumentException duplicate =
        assertThrows(IllegalArgumentException.class, () -> twice.httpGet("/metrics", handler));
    assertTrue(duplicate.getMessage().contains("/metrics"), duplicate.getMessage());
    IllegalArgumentException hidden = assertThrows(IllegalArgumentException.class, () -> TripleServer.builder()
        .addService(EchoService.class, new EchoServiceImpl()).httpGet(ECHO, handler).build());
    assertTrue(hidden.getMessage().contains("triple.test.EchoService/echo"), hidden.getMessage());
  }
}
