package io.triplerpc.transport.netty.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CorsPolicy;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.http.Curl.Answer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CORS on the web protocols, with curl over HTTP/1.1 and HTTP/2: nothing allowed without a policy; with
 * one, preflights of its origins answered with what they may send, their responses readable, and
 * every other origin refused.
 */
class CorsTest {

  private static final String ECHO = "/triple.test.EchoService/echo";
  private static final String APP = "http://app.example.com:8080";

  @TempDir
  Path dir;
  private TripleServer server;

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  private void start(CorsPolicy cors) {
    TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl());
    if (cors != null) {
      builder.cors(cors);
    }
    server = builder.build().start();
  }

  private Answer preflight(String version, String origin, String headers) throws Exception {
    List<String> args = new ArrayList<>(List.of(version, "-X", "OPTIONS", "-H", "origin: " + origin,
        "-H", "access-control-request-method: POST"));
    if (headers != null) {
      args.addAll(List.of("-H", "access-control-request-headers: " + headers));
    }
    args.add("http://127.0.0.1:" + server.port() + ECHO);
    return new Curl(dir).run(args.toArray(String[]::new));
  }

  private Answer call(String version, String origin) throws Exception {
    return new Curl(dir).run(version, "-H", "origin: " + origin, "-H", "content-type: application/json",
        "-H", "connect-protocol-version: 1", "--data-binary", "{\"message\":\"hi\"}",
        "http://127.0.0.1:" + server.port() + ECHO);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void withoutAPolicyNoOriginIsAllowed(String version) throws Exception {
    start(null);
    Answer preflight = preflight(version, APP, "content-type");
    assertEquals(403, preflight.status(), preflight::toString);
    assertNull(preflight.header("access-control-allow-origin"), preflight::headers);
    assertTrue(preflight.body().contains("no CORS policy"), preflight::body);
    Answer call = call(version, APP);
    assertEquals(200, call.status(), "served, but not readable by the page: " + call);
    assertNull(call.header("access-control-allow-origin"), call::headers);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void anAllowedOriginsPreflightAndCallCarryTheCorsHeaders(String version) throws Exception {
    start(CorsPolicy.builder().allowOrigins(APP).allowMethods("GET", "POST").allowRequestHeaders("x-tenant")
        .maxAge(Duration.ofMinutes(10)).build());
    Answer preflight = preflight(version, APP, "content-type, connect-protocol-version, x-tenant");
    assertEquals(204, preflight.status(), preflight::toString);
    assertEquals(APP, preflight.header("access-control-allow-origin"));
    assertEquals("GET, POST", preflight.header("access-control-allow-methods"));
    assertTrue(preflight.header("access-control-allow-headers").contains("x-tenant"), preflight::headers);
    assertTrue(preflight.header("access-control-allow-headers").contains("connect-protocol-version"), preflight::headers);
    assertEquals("600", preflight.header("access-control-max-age"));
    assertEquals("origin", preflight.header("vary"));

    Answer call = call(version, APP);
    assertEquals(200, call.status(), call::toString);
    assertTrue(call.body().startsWith("{\"message\":\"hi\""), call::body);
    assertEquals(APP, call.header("access-control-allow-origin"));
    assertEquals("*", call.header("access-control-expose-headers"));
    assertNull(call.header("access-control-allow-credentials"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void otherOriginsAndHeadersNotAllowedAreRefused(String version) throws Exception {
    start(CorsPolicy.builder().allowOrigins(APP).build());
    Answer otherOrigin = preflight(version, "http://evil.example.com", "content-type");
    assertEquals(403, otherOrigin.status(), otherOrigin::toString);
    assertNull(otherOrigin.header("access-control-allow-origin"), otherOrigin::headers);
    Answer otherHeader = preflight(version, APP, "content-type, x-tenant");
    assertEquals(403, otherHeader.status(), otherHeader::toString);
    assertTrue(otherHeader.body().contains("x-tenant"), otherHeader::body);
    Answer call = call(version, "http://evil.example.com");
    assertNull(call.header("access-control-allow-origin"), call::headers);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void onlyPostUnlessGetIsAllowed(String version) throws Exception {
    start(CorsPolicy.builder().allowOrigins(APP).build());
    Answer post = preflight(version, APP, "content-type");
    assertEquals(204, post.status(), post::toString);
    assertEquals("POST", post.header("access-control-allow-methods"));
    Answer get = new Curl(dir).run(version, "-X", "OPTIONS", "-H", "origin: " + APP,
        "-H", "access-control-request-method: GET", "http://127.0.0.1:" + server.port() + ECHO);
    assertEquals(403, get.status(), get::toString);
    assertTrue(get.body().contains("Method GET may not be used cross-origin"), get::body);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void credentialsNameTheOriginAndTheHeadersExposed(String version) throws Exception {
    start(CorsPolicy.builder().allowOrigins(APP).allowCredentials(true).exposeResponseHeaders("x-echo").build());
    Answer call = call(version, APP);
    assertEquals(APP, call.header("access-control-allow-origin"));
    assertEquals("true", call.header("access-control-allow-credentials"));
    String exposed = call.header("access-control-expose-headers");
    assertTrue(exposed.contains("x-echo") && exposed.contains("grpc-status"), exposed);
  }
}
