package io.triplerpc.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.micrometer.testing.Ping;
import io.triplerpc.testing.TestCertificates;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus scrape a server serves on its own port ({@code httpGet("/metrics",
 * TripleMetrics.prometheus(registry))}), read with the JDK's HTTP client and the real curl over HTTP/1.1,
 * HTTP/2 (prior knowledge and h2c upgrade) and TLS, after real calls on the same port.
 */
class PrometheusEndpointTest {

  private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
  private static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
  /** What Prometheus 2 and 3 send by default: OpenMetrics first, the text format as a fallback. */
  private static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0;q=0.5,"
      + "application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2";
  private static final String PING = "triple.metrics.test.PingService/ping";
  private static final String SERVED_OK = "grpc_server_call_duration_seconds_count{grpc_method=\"" + PING
      + "\",grpc_status=\"OK\",triple_protocol=\"grpc\"} 1";

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  /** Added after the server's metrics observer: what the tests await. */
  private final MetricsRecorded afterMetrics = new MetricsRecorded();
  private TripleServer server;

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "server terminated");
    }
    registry.close();
  }

  /** A ping server with call metrics in {@link #registry}, plus {@code customize}'s settings. */
  private void start(UnaryOperator<TripleServer.Builder> customize) {
    server = customize.apply(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PingService.class, new PingServiceImpl())
        .callObserver(TripleMetrics.server(registry)).callObserver(afterMetrics)).build().start();
    TripleMetrics.bind(server, registry);
  }

  private void startServingTheScrape() {
    start(builder -> builder.httpGet("/metrics", TripleMetrics.prometheus(registry)));
  }

  /** One gRPC call on the server's port, and its end seen by the server's metrics. */
  private void pingOverGrpc() {
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      assertEquals("grpc", client.proxy(PingService.class).ping(Ping.newBuilder().setText("grpc").build()).getText());
    }
    afterMetrics.await(() -> {
      Timer served = registry.find("grpc.server.call.duration").tag("triple.protocol", "grpc").timer();
      return served != null && served.count() == 1;
    }, "the server saw the call end");
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  private HttpResponse<String> get(HttpClient client, String url, String accept) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
    if (accept != null) {
      request.header("accept", accept);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aScrapeOnTheServersPortShowsTheCallsItServed() throws Exception {
    startServingTheScrape();
    pingOverGrpc();
    String json = Curl.runOk("-H", "content-type: application/json", "--data-binary", "{\"text\":\"curl\"}", url("/" + PING));
    assertEquals("{\"text\":\"curl\"}", json, "curl's JSON calls go on");
    afterMetrics.await(() -> registry.find("grpc.server.call.duration").tag("triple.protocol", "connect").timer() != null,
        "the server saw the JSON call end");

    HttpResponse<String> scrape = get(http1, url("/metrics"), null);
    assertEquals(200, scrape.statusCode());
    assertEquals(TEXT_FORMAT, scrape.headers().firstValue("content-type").orElse(null));
    assertEquals(HttpClient.Version.HTTP_1_1, scrape.version());
    for (String expected : List.of(
        "# TYPE grpc_server_call_duration_seconds histogram",
        SERVED_OK,
        "grpc_server_call_duration_seconds_bucket{grpc_method=\"" + PING
            + "\",grpc_status=\"OK\",triple_protocol=\"grpc\",le=\"100.0\"} 1",
        "grpc_server_call_started_total{grpc_method=\"" + PING + "\",triple_protocol=\"connect\"} 1",
        "triple_server_connections ")) {
      assertTrue(scrape.body().contains(expected), "no " + expected + " in\n" + scrape.body());
    }
    assertFalse(scrape.body().contains("# EOF"), "not OpenMetrics");
    assertEquals(List.of(Integer.toString(scrape.body().getBytes(StandardCharsets.UTF_8).length)),
        scrape.headers().allValues("content-length"));
  }

  @Test
  void http2ServesTheSameScrapeWithPriorKnowledgeOrAnUpgrade() throws Exception {
    startServingTheScrape();
    pingOverGrpc();
    String priorKnowledge = Curl.runOk("--http2-prior-knowledge", "-w", "\n%{http_version} %{http_code} %{content_type}",
        url("/metrics"));
    assertTrue(priorKnowledge.endsWith("\n2 200 " + TEXT_FORMAT), priorKnowledge);
    assertTrue(priorKnowledge.contains(SERVED_OK), priorKnowledge);

    HttpResponse<String> upgraded = get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build(),
        url("/metrics"), null);
    assertEquals(HttpClient.Version.HTTP_2, upgraded.version());
    assertEquals(200, upgraded.statusCode());
    assertEquals(TEXT_FORMAT, upgraded.headers().firstValue("content-type").orElse(null));
    assertTrue(upgraded.body().contains(SERVED_OK), upgraded.body());
  }

  @Test
  void openMetricsIsServedWhenTheAcceptHeaderAsksForIt() throws Exception {
    startServingTheScrape();
    pingOverGrpc();
    HttpResponse<String> openMetrics = get(http1, url("/metrics"), PROMETHEUS_ACCEPT);
    assertEquals(200, openMetrics.statusCode());
    assertEquals(OPENMETRICS, openMetrics.headers().firstValue("content-type").orElse(null));
    assertTrue(openMetrics.body().endsWith("# EOF\n"), openMetrics.body());
    assertTrue(openMetrics.body().contains("# TYPE grpc_server_call_started counter"), openMetrics.body());
    assertTrue(openMetrics.body().contains(SERVED_OK), openMetrics.body());

    String curled = Curl.runOk("--http2-prior-knowledge", "-H", "accept: " + PROMETHEUS_ACCEPT, "-w", "\n%{content_type}",
        url("/metrics"));
    assertTrue(curled.endsWith("# EOF\n\n" + OPENMETRICS), curled);

    HttpResponse<String> text = get(http1, url("/metrics"), "text/plain;version=0.0.4");
    assertEquals(TEXT_FORMAT, text.headers().firstValue("content-type").orElse(null));
  }

  @Test
  void headAnswersTheLengthAndOtherMethodsGet405() throws Exception {
    startServingTheScrape();
    HttpResponse<String> head = http1.send(HttpRequest.newBuilder(URI.create(url("/metrics")))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, head.statusCode());
    assertEquals(TEXT_FORMAT, head.headers().firstValue("content-type").orElse(null));
    assertTrue(Long.parseLong(head.headers().firstValue("content-length").orElse("0")) > 0, head.headers().toString());
    assertEquals("", head.body());

    for (String method : List.of("POST", "PUT", "DELETE")) {
      HttpResponse<String> refused = http1.send(HttpRequest.newBuilder(URI.create(url("/metrics")))
          .method(method, HttpRequest.BodyPublishers.ofString("{}")).header("content-type", "application/json").build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(405, refused.statusCode(), method);
      assertEquals(List.of("GET, HEAD"), refused.headers().allValues("allow"), method);
    }
  }

  @Test
  void withoutItMetricsIsAPathLikeAnyOther() throws Exception {
    start(builder -> builder);
    pingOverGrpc();
    HttpResponse<String> metrics = get(http1, url("/metrics"), null);
    HttpResponse<String> unknown = get(http1, url("/no-such-path"), null);
    assertNotEquals(200, metrics.statusCode());
    assertEquals(unknown.statusCode(), metrics.statusCode());
    assertEquals(unknown.body(), metrics.body());
    assertFalse(metrics.body().contains("grpc_server"), metrics.body());
    assertEquals(404, get(http1, url("/metrics?encoding=json&message=%7B%7D"), null).statusCode(),
        "a Connect GET of /metrics finds no method");
  }

  @Test
  void aTlsServerServesTheScrapeOverTlsWithEitherHttpVersion() throws Exception {
    start(builder -> builder
        .tls(TlsConfig.builder().keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey()).build())
        .httpGet("/metrics", TripleMetrics.prometheus(registry)));
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port())
        .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build()).build()) {
      client.proxy(PingService.class).ping(Ping.newBuilder().setText("tls").build());
    }
    afterMetrics.await(() -> registry.find("grpc.server.call.duration").timer() != null, "the server saw the call end");
    SSLContext tls = trusting(TestCertificates.caCertificate());
    for (HttpClient.Version version : List.of(HttpClient.Version.HTTP_2, HttpClient.Version.HTTP_1_1)) {
      HttpClient client = HttpClient.newBuilder().version(version).sslContext(tls).build();
      HttpResponse<String> scrape = get(client, "https://127.0.0.1:" + server.port() + "/metrics", null);
      assertEquals(200, scrape.statusCode(), version.toString());
      assertEquals(version, scrape.version(), "ALPN chose it");
      assertTrue(scrape.body().contains(SERVED_OK), scrape.body());
    }
  }

  /** An SSLContext that trusts the CA in {@code caPem}. */
  private static SSLContext trusting(java.nio.file.Path caPem) throws Exception {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    try (InputStream in = Files.newInputStream(caPem)) {
      trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }


}
