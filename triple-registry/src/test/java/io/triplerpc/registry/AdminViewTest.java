package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.AccessPolicy;
import io.triplerpc.Authenticator;
import io.triplerpc.ClientProtocol;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleAdmin;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.spi.AdminView;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The admin endpoint's view of a process: its connections and calls as real clients hold them open (a Triple
 * client over HTTP/2, a Connect call over HTTP/1.1), its discovery's directories, its HTML page, and its
 * guard when bound beyond loopback.
 */
class AdminViewTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(WAIT).build();

  private final List<TripleServer> servers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();
  private InProcessRegistry registry;
  private TripleAdmin admin;

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    if (admin != null) {
      admin.close();
    }
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    if (registry != null) {
      registry.close();
    }
  }

  /**
   * A {@link Whoami} whose {@code who("hold")} waits for {@link #release}, and {@code who("boom")} fails with a
   * status (an exception of its own would travel as Dubbo sends it: the response, under grpc-status OK).
   */
  private static final class Held implements Whoami {
    final CountDownLatch entered;
    final CountDownLatch release = new CountDownLatch(1);
    /** Released as each call ends on the server, after the admin endpoint's counters moved. */
    final Semaphore ended = new Semaphore(0);

    /** {@code held}: how many calls {@link #entered} awaits. */
    Held(int held) {
      this.entered = new CountDownLatch(held);
    }

    @Override
    public String who(String caller) {
      ServerContext.current().addEndListener(status -> ended.release());
      if (caller.equals("hold")) {
        entered.countDown();
        try {
          assertTrue(release.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      } else if (caller.equals("boom")) {
        throw Status.PERMISSION_DENIED.withDescription("boom").asException();
      }
      return "held";
    }

    @Override
    public String whoIdempotent(String caller) {
      return "held";
    }
  }

  private TripleServer started(TripleServer.Builder builder) {
    TripleServer server = builder.build().start();
    servers.add(server);
    return server;
  }

  @Test
  void callsHeldOpenShowInConnectionsAndCallsAndTheCountersMoveAsTheyEnd() throws Exception {
    Held held = new Held(3);
    TripleServer server = started(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, held).admin(0));
    TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    clients.add(client);
    CompletableFuture<String> overHttp2 = client.proxy(WhoamiAsync.class).who("hold");
    TripleClient web = TripleClient.builder().address("127.0.0.1", server.port()).protocol(ClientProtocol.GRPC_WEB)
        .build();
    clients.add(web);
    CompletableFuture<String> overGrpcWeb = web.proxy(WhoamiAsync.class).who("hold");
    HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(WAIT).build();
    CompletableFuture<HttpResponse<String>> overHttp1 = http1.sendAsync(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/triple.test.Whoami/who"))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString("\"hold\""))
        .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    assertTrue(held.entered.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the three calls reached the service");

    JsonNode who = method(json(server, "/calls"), "triple.test.Whoami/who");
    assertEquals(3, who.get("inFlight").asInt());
    assertEquals(3, who.get("started").asInt());
    assertEquals(0, who.get("succeeded").asInt());
    assertEquals("UNARY", who.get("type").asText());
    assertEquals(0, method(json(server, "/calls"), "triple.test.Whoami/whoIdempotent").get("started").asInt());

    JsonNode connections = json(server, "/connections");
    assertEquals(0, connections.get("unanswered").asInt());
    assertEquals(3, connections.get("connections").size(), connections.toString());
    JsonNode http2 = connection(connections, "grpc");
    assertEquals("HTTP/2", http2.get("protocol").asText());
    assertEquals(1, http2.get("streams").asInt());
    JsonNode grpcWeb = connection(connections, "grpc-web");
    assertEquals("HTTP/2", grpcWeb.get("protocol").asText());
    assertEquals("{\"grpc-web\":1}", grpcWeb.get("streamsByProtocol").toString());
    assertTrue(http2.get("peer").asText().startsWith("127.0.0.1:"), http2.toString());
    assertFalse(http2.get("tls").asBoolean());
    assertFalse(java.time.Instant.parse(http2.get("openedAt").asText()).isAfter(java.time.Instant.now()));
    assertTrue(http2.get("openForMillis").asLong() >= 0, http2.toString());
    assertTrue(http2.get("bytesIn").asLong() > 0 && http2.get("bytesOut").asLong() > 0, http2.toString());
    assertTrue(http2.get("flowControl").get("inboundWindow").asInt() > 0, http2.toString());
    assertTrue(http2.get("flowControl").get("outboundWindow").asInt() > 0, http2.toString());
    assertEquals(0, http2.get("keepAlive").get("pingsSent").asInt(), "the server pings after 2 hours of silence");
    assertFalse(http2.get("keepAlive").get("awaitingAck").asBoolean());
    assertEquals(0, http2.get("idleMillis").asLong(), "a stream is open");
    JsonNode http11 = connection(connections, "HTTP/1.1");
    assertEquals(1, http11.get("streams").asInt());
    assertTrue(http11.get("bytesIn").asLong() > 0, http11.toString());
    assertNull(http11.get("flowControl"));

    held.release.countDown();
    assertEquals("held", overHttp2.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    assertEquals("held", overGrpcWeb.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    HttpResponse<String> response = overHttp1.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("\"held\"", response.body());
    ExecutionException failed = assertThrows(ExecutionException.class,
        () -> client.proxy(WhoamiAsync.class).who("boom").get(WAIT.toSeconds(), TimeUnit.SECONDS));
    assertEquals(Status.Code.PERMISSION_DENIED, ((StatusException) failed.getCause()).status().code());
    assertTrue(held.ended.tryAcquire(4, WAIT.toSeconds(), TimeUnit.SECONDS), "the four calls ended");

    who = method(json(server, "/calls"), "triple.test.Whoami/who");
    assertEquals(0, who.get("inFlight").asInt());
    assertEquals(4, who.get("started").asInt());
    assertEquals(3, who.get("succeeded").asInt(), who.toString());
    assertEquals(Map.of("PERMISSION_DENIED", 1), JSON.convertValue(who.get("failed"), Map.class), who.toString());
    JsonNode after = peer(json(server, "/connections"), http2.get("peer").asText());
    assertEquals(0, after.get("streams").asInt());
    assertTrue(after.get("bytesOut").asLong() > http2.get("bytesOut").asLong(), "the responses went out");
    assertTrue(after.get("bytesIn").asLong() > http2.get("bytesIn").asLong(), "the failing call came in");

    HttpResponse<String> page = get(server.adminPort(), "/", null);
    assertEquals(200, page.statusCode());
    assertEquals("text/html; charset=utf-8", page.headers().firstValue("content-type").orElse(null));
    for (String expected : List.of("triple.test.Whoami/who", "<a href=\"/calls\">JSON</a>",
        "<a href=\"/connections\">JSON</a>", "HTTP/2", "HTTP/1.1")) {
      assertTrue(page.body().contains(expected), expected + " in " + page.body());
    }
  }

  @Test
  void aConnectionWhoseEventLoopIsStuckIsCountedUnansweredAfterABoundedWait() throws Exception {
    Held held = new Held(1);
    // A service run on the event loop (directExecutor) that blocks it: the loop cannot describe its connection.
    TripleServer server = started(TripleServer.builder().host("127.0.0.1").port(0).ioThreads(1).directExecutor()
        .addService(Whoami.class, held).admin(0));
    TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    clients.add(client);
    CompletableFuture<String> stuck = client.proxy(WhoamiAsync.class).who("hold");
    assertTrue(held.entered.await(WAIT.toSeconds(), TimeUnit.SECONDS));
    JsonNode connections = json(server, "/connections");
    assertEquals(1, connections.get("unanswered").asInt(), connections.toString());
    assertEquals(0, connections.get("connections").size());
    assertEquals(1, method(json(server, "/calls"), "triple.test.Whoami/who").get("inFlight").asInt(),
        "the counters are read off the loop");

    held.release.countDown();
    assertEquals("held", stuck.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    connections = json(server, "/connections");
    assertEquals(0, connections.get("unanswered").asInt(), connections.toString());
    assertEquals(1, connections.get("connections").size());
  }

  @Test
  void thePageEscapesWhatAViewShowsAndViewsAreChecked() throws Exception {
    String hostile = "<script>alert('x')</script> & \"more\"";
    AdminView view = new AdminView() {
      @Override
      public String name() {
        return "hostile";
      }

      @Override
      public Object snapshot() {
        return Map.of("items", List.of(Map.of("name", hostile)));
      }
    };
    TripleServer server = started(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named("a")).admin(0).adminView(view));
    assertEquals(hostile, json(server, "/hostile").get("items").get(0).get("name").asText());
    String page = get(server.adminPort(), "/", null).body();
    assertFalse(page.contains("<script>"), page);
    assertTrue(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;more&quot;"), page);
    assertTrue(page.contains("<a href=\"/hostile\">JSON</a>"), page);

    assertThrows(IllegalArgumentException.class, () -> TripleServer.builder().admin(0).adminView(named("calls")));
    assertThrows(IllegalArgumentException.class, () -> TripleServer.builder().admin(0).adminView(named("Bad/Name")));
    assertThrows(IllegalArgumentException.class,
        () -> TripleServer.builder().admin(0).adminView(named("x")).adminView(named("x")));
    assertThrows(IllegalStateException.class, () -> TripleServer.builder().addService(Whoami.class,
        Whoami.named("a")).adminView(named("x")).build(), "a view needs an endpoint");
  }

  @Test
  void directoriesShowEachClientsSubscriptionsEndpointsWarmUpAndTagRule() throws Exception {
    registry = new InProcessRegistry();
    MapRuleSource rules = new MapRuleSource();
    TripleServer first = started(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named("first"))
        .registration(Registration.to(registry).application("whoami-app").build()));
    TripleServer second = started(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named("second"))
        .registration(Registration.to(registry).application("whoami-app").weight(40).build()));
    rules.put(RuleKeys.tagRouter("whoami-app"), "configVersion: v3.0\nforce: false\nkey: whoami-app\ntags:\n"
        + "  - name: gray\n    addresses: [ \"127.0.0.1:" + first.port() + "\" ]\n");
    // Five minutes into a ten-minute warm-up, by a clock of the test's.
    AtomicLong wallClock = new AtomicLong(System.currentTimeMillis() + Duration.ofMinutes(5).toMillis());
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    Discovery discovery = Discovery.using(registry).rules(rules).observer(seen).warmup(Duration.ofMinutes(10))
        .warmupClock(wallClock::get).build();
    // A process that only calls: an endpoint of its own.
    admin = TripleAdmin.builder().port(0).view(discovery).start();
    TripleClient client = TripleClient.builder().cluster(discovery).build();
    clients.add(client);
    client.proxy(Whoami.class).who("me");
    seen.awaitInstances("triple.test.Whoami", 2);

    JsonNode clientsSeen = json(admin.port(), "/directories").get("clients");
    assertEquals(1, clientsSeen.size());
    JsonNode seenByClient = clientsSeen.get(0);
    assertEquals("WEIGHTED_RANDOM", seenByClient.get("balancing").asText());
    JsonNode service = seenByClient.get("services").get(0);
    assertEquals("triple.test.Whoami", service.get("service").asText());
    assertEquals("[\"whoami-app\"]", service.get("applications").toString());
    assertEquals(2, service.get("endpoints").asInt());
    JsonNode subscription = seenByClient.get("subscriptions").get(0);
    assertEquals("whoami-app", subscription.get("application").asText());
    assertEquals("[\"127.0.0.1:" + first.port() + "\"]",
        subscription.get("tagRule").get("tags").get("gray").toString());
    assertEquals(2, subscription.get("endpoints").size());
    for (JsonNode endpoint : subscription.get("endpoints")) {
      boolean isFirst = endpoint.get("address").asText().equals("127.0.0.1:" + first.port());
      assertTrue(isFirst || endpoint.get("address").asText().equals("127.0.0.1:" + second.port()), endpoint.toString());
      assertEquals(isFirst ? 100 : 40, endpoint.get("weight").asInt(), endpoint.toString());
      assertTrue(endpoint.get("warmingUp").asBoolean(), endpoint.toString());
      int effective = endpoint.get("effectiveWeight").asInt();
      assertTrue(effective >= 1 && effective < endpoint.get("weight").asInt(), endpoint.toString());
      double share = endpoint.get("warmupShare").asDouble();
      assertEquals((double) effective / endpoint.get("weight").asInt(), share, 1e-9);
      assertFalse(endpoint.get("ejected").asBoolean());
    }
    String page = get(admin.port(), "/", null).body();
    assertTrue(page.contains("<a href=\"/directories\">JSON</a>") && page.contains("whoami-app"), page);
    assertFalse(page.contains("/calls"), "no server, no calls");
    for (String path : List.of("/state", "/offline", "/calls")) {
      int status = get(admin.port(), path, null).statusCode();
      assertTrue(status >= 400 && status < 500, path + " is not served without a server: " + status);
    }

    client.close();
    assertEquals(0, json(admin.port(), "/directories").get("clients").size(), "a closed client is gone");
    assertThrows(IllegalStateException.class, () -> TripleAdmin.builder().start(), "nothing to show");
  }

  @Test
  void anEndpointBoundBeyondLoopbackAsksForCredentials() throws Exception {
    Principal ops = () -> "ops";
    AccessPolicy policy = AccessPolicy.builder(Authenticator.bearerToken(token -> token.equals("ops-token") ? ops : null))
        .authorize("triple.admin.Admin/offline", (principal, call) -> false)
        .build();
    TripleServer server = started(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named("a")).admin(new InetSocketAddress(0), policy));
    int port = server.adminPort();
    HttpResponse<String> anonymous = get(port, "/state", null);
    assertEquals(401, anonymous.statusCode());
    assertEquals("Bearer", anonymous.headers().firstValue("www-authenticate").orElse(null));
    assertEquals(401, get(port, "/connections", "Bearer wrong").statusCode());
    assertEquals(401, get(port, "/", "Basic b3BzOm9wcw==").statusCode());
    HttpResponse<String> state = get(port, "/state", "Bearer ops-token");
    assertEquals(200, state.statusCode(), state.body());
    assertEquals("online", JSON.readTree(state.body()).get("state").asText());
    assertEquals(200, get(port, "/calls", "Bearer ops-token").statusCode());
    HttpResponse<String> offline = get(port, "/offline", "Bearer ops-token");
    assertEquals(403, offline.statusCode(), offline.body());
    assertTrue(offline.body().contains("ops may not use triple.admin.Admin/offline"), offline.body());
    assertFalse(server.isOffline());
    assertThrows(NullPointerException.class, () -> TripleServer.builder().admin(new InetSocketAddress(0), null));
  }

  private static AdminView named(String name) {
    return new AdminView() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Object snapshot() {
        return Map.of();
      }
    };
  }

  private static JsonNode method(JsonNode calls, String name) {
    for (JsonNode method : calls.get("methods")) {
      if (method.get("method").asText().equals(name)) {
        return method;
      }
    }
    throw new AssertionError(name + " not in " + calls);
  }

  /** The connection of {@code protocol} (HTTP/1.1), or of an HTTP/2 stream of call protocol {@code protocol}. */
  private static JsonNode connection(JsonNode connections, String protocol) {
    for (JsonNode connection : connections.get("connections")) {
      JsonNode streams = connection.get("streamsByProtocol");
      if (connection.get("protocol").asText().equals(protocol) || streams != null && streams.has(protocol)) {
        return connection;
      }
    }
    throw new AssertionError("No " + protocol + " connection in " + connections);
  }

  private static JsonNode peer(JsonNode connections, String peer) {
    for (JsonNode connection : connections.get("connections")) {
      if (connection.get("peer").asText().equals(peer)) {
        return connection;
      }
    }
    throw new AssertionError("No connection from " + peer + " in " + connections);
  }

  private static JsonNode json(TripleServer server, String path) throws Exception {
    return json(server.adminPort(), path);
  }

  private static JsonNode json(int port, String path) throws Exception {
    HttpResponse<String> response = get(port, path, null);
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("application/json", response.headers().firstValue("content-type").orElse(null));
    return JSON.readTree(response.body());
  }

  private static HttpResponse<String> get(int port, String path, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(WAIT);
    if (authorization != null) {
      request.header("authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
