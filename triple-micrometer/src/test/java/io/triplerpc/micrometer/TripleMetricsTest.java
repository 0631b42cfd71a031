package io.triplerpc.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.triplerpc.ClientProtocol;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.internal.server.ServerTransports;
import io.triplerpc.micrometer.testing.Ping;
import io.triplerpc.micrometer.testing.Pong;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Call metrics and gauges of real calls over loopback, read back from a real {@link SimpleMeterRegistry}:
 * every call type, failures, unknown methods, retries, protocols, sizes on both sides, gauges.
 */
class TripleMetricsTest {

  private static final String SERVICE = "triple.metrics.test.PingService";
  private static final String PING = SERVICE + "/ping";

  private final MeterRegistry registry = new SimpleMeterRegistry();
  /** Added after each metrics observer, and told when a server's connections change: what the tests await. */
  private final MetricsRecorded afterMetrics = new MetricsRecorded();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private TripleServer server;
  private String target;

  private TripleServer startServer(TripleServer.Builder builder) {
    TripleServer started = builder.host("127.0.0.1").port(0).addService(PingService.class, new PingServiceImpl())
        .build().start();
    ServerTransports.of(started).onConnectionsChanged(afterMetrics::fire);
    toClose.add(() -> {
      started.shutdownNow();
      started.awaitTermination(Duration.ofSeconds(10));
    });
    return started;
  }

  private TripleClient client(TripleClient.Builder builder) {
    TripleClient client = builder.address("127.0.0.1", server.port()).build();
    toClose.add(0, client);
    return client;
  }

  /** A server and a client with metrics in {@link #registry}; returns the client's proxy. */
  private PingService start() {
    server = startServer(TripleServer.builder().callObserver(TripleMetrics.server(registry)).callObserver(afterMetrics));
    target = "127.0.0.1:" + server.port();
    return client(TripleClient.builder().callObserver(TripleMetrics.client(registry)).callObserver(afterMetrics)).proxy(PingService.class);
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : toClose) {
      closeable.close();
    }
  }

  private static Ping ping(String text) {
    return Ping.newBuilder().setText(text).build();
  }

  @Test
  void everyCallTypeIsCountedOnBothSidesWithSizesThatAgree() throws Exception {
    PingService pings = start();
    assertEquals("a", pings.ping(ping("a")).getText());

    Replies streamed = new Replies();
    pings.pings(Ping.newBuilder().setText("b").setCount(3).build(), streamed);
    assertEquals(3, streamed.done.get(10, TimeUnit.SECONDS).size());

    Replies collected = new Replies();
    StreamObserver<Ping> requests = pings.collect(collected);
    requests.onNext(ping("c"));
    requests.onNext(ping("d"));
    requests.onCompleted();
    assertEquals(List.of("cd"), collected.done.get(10, TimeUnit.SECONDS));

    Replies chatted = new Replies();
    StreamObserver<Ping> chat = pings.chat(chatted);
    chat.onNext(ping("e"));
    chat.onNext(ping("f"));
    chat.onCompleted();
    assertEquals(List.of("e", "f"), chatted.done.get(10, TimeUnit.SECONDS));

    for (String method : List.of("ping", "pings", "collect", "chat")) {
      String name = SERVICE + "/" + method;
      awaitEnded(name, 1);
      assertEquals(1, serverStarted(name, "grpc").count(), name);
      assertEquals(1, clientAttemptStarted(name).count(), name);
      assertEquals(1, timer("grpc.client.attempt.duration", name, "OK").count(), name);
      assertEquals(1, timer("grpc.client.call.duration", name, "OK").count(), name);
      DistributionSummary clientSent = summary("grpc.client.attempt.sent_total_compressed_message_size", name, "OK");
      DistributionSummary serverRcvd = summary("grpc.server.call.rcvd_total_compressed_message_size", name, "OK");
      DistributionSummary serverSent = summary("grpc.server.call.sent_total_compressed_message_size", name, "OK");
      DistributionSummary clientRcvd = summary("grpc.client.attempt.rcvd_total_compressed_message_size", name, "OK");
      assertTrue(clientSent.totalAmount() > 0, name);
      assertEquals(clientSent.totalAmount(), serverRcvd.totalAmount(), name);
      assertEquals(serverSent.totalAmount(), clientRcvd.totalAmount(), name);
    }
    // The unary request "a" is 3 bytes of protobuf (tag, length, 'a'); no framing counted.
    assertEquals(ping("a").getSerializedSize(),
        summary("grpc.client.attempt.sent_total_compressed_message_size", PING, "OK").totalAmount());
    assertEquals(3 * Pong.newBuilder().setText("b #0").build().getSerializedSize(),
        summary("grpc.server.call.sent_total_compressed_message_size", SERVICE + "/pings", "OK").totalAmount());
  }

  @Test
  void failuresAreTaggedWithTheStatusCodesName() {
    PingService pings = start();
    StatusException e = assertThrows(StatusException.class,
        () -> pings.ping(Ping.newBuilder().setFailCode(Status.Code.INVALID_ARGUMENT.value()).build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.status().code());
    awaitEnded(PING, 1);
    assertEquals(1, timer("grpc.server.call.duration", PING, "INVALID_ARGUMENT").count());
    assertEquals(1, timer("grpc.client.attempt.duration", PING, "INVALID_ARGUMENT").count());
    assertEquals(1, timer("grpc.client.call.duration", PING, "INVALID_ARGUMENT").count());
    assertNull(registry.find("grpc.server.call.duration").tag("grpc.status", "OK").timer());
    assertEquals(0, summary("grpc.server.call.sent_total_compressed_message_size", PING, "INVALID_ARGUMENT")
        .totalAmount(), "no reply was sent");
  }

  @Test
  void methodsTheServerDoesNotServeCollapseToOther() throws Exception {
    start();
    for (String path : List.of("/no.such.Service/A", "/made.up.Name/B", "/" + SERVICE + "/nope")) {
      assertEquals("404", Curl.run("-o", "/dev/null", "-w", "%{http_code}", "-H", "content-type: application/json",
          "--data-binary", "{}", "http://127.0.0.1:" + server.port() + path));
    }
    afterMetrics.await(() -> serverEndedCount("other") == 3, "three unknown calls ended");
    assertEquals(3, serverStarted("other", "connect").count());
    Timer unimplemented = timer("grpc.server.call.duration", "other", "UNIMPLEMENTED");
    assertEquals("connect", unimplemented.getId().getTag("triple.protocol"));
    for (Meter meter : registry.getMeters()) {
      String method = meter.getId().getTag("grpc.method");
      assertTrue(method == null || method.equals("other"), meter.getId().toString());
    }
  }

  /** A service the test servers do not serve, called through a client's proxy. */
  @TripleService(name = "triple.metrics.test.Unserved")
  public interface Unserved {
    Pong ping(Ping request);
  }

  private static final String UNSERVED = "triple.metrics.test.Unserved/ping";

  @Test
  void theClientNamesTheMethodsItCallsWhileTheServerSaysOther() {
    start();
    Unserved unserved = client(TripleClient.builder().callObserver(TripleMetrics.client(registry)).callObserver(afterMetrics)).proxy(Unserved.class);
    StatusException e = assertThrows(StatusException.class, () -> unserved.ping(ping("anyone there?")));
    assertEquals(Status.Code.UNIMPLEMENTED, e.status().code());
    afterMetrics.await(() -> serverEndedCount("other") == 1 && endedCount("grpc.client.call.duration", UNSERVED) == 1,
        "both sides saw the call end");
    assertEquals(1, timer("grpc.server.call.duration", "other", "UNIMPLEMENTED").count());
    assertEquals(1, timer("grpc.client.attempt.duration", UNSERVED, "UNIMPLEMENTED").count());
    assertEquals(1, clientAttemptStarted(UNSERVED).count());
    assertNull(registry.find("grpc.server.call.started").tag("grpc.method", UNSERVED).counter());
  }

  @Test
  void aServersFilterKeepsTheUnknownNamesItAccepts() throws Exception {
    server = startServer(TripleServer.builder().callObserver(TripleMetrics.server(registry, Tags.of("app", "shop"),
        name -> name.startsWith("triple.metrics.test.Unserved/"))).callObserver(afterMetrics));
    target = "127.0.0.1:" + server.port();
    Unserved unserved = client(TripleClient.builder()).proxy(Unserved.class);
    assertThrows(StatusException.class, () -> unserved.ping(ping("kept")));
    assertEquals("404", Curl.run("-o", "/dev/null", "-w", "%{http_code}", "-H", "content-type: application/json",
        "--data-binary", "{}", "http://127.0.0.1:" + server.port() + "/made.up.Name/B"));
    assertEquals("shop", pingOverGrpcAndGetItsTag());
    afterMetrics.await(() -> serverEndedCount(UNSERVED) == 1 && serverEndedCount("other") == 1,
        "the three calls ended");
    assertEquals(1, serverStarted(UNSERVED, "grpc").count());
    assertEquals("UNIMPLEMENTED", registry.get("grpc.server.call.duration").tag("grpc.method", UNSERVED).timer()
        .getId().getTag("grpc.status"));
    assertEquals(1, serverStarted("other", "connect").count(), "a name the filter refuses is other");
    assertNull(registry.find("grpc.server.call.started").tag("grpc.method", "made.up.Name/B").counter());
  }

  /** Pings the server of the test, whose method keeps its name whatever a filter says; returns its app tag. */
  private String pingOverGrpcAndGetItsTag() {
    client(TripleClient.builder()).proxy(PingService.class).ping(ping("served"));
    awaitServerEnded(PING, 1);
    return registry.get("grpc.server.call.started").tag("grpc.method", PING).counter().getId().getTag("app");
  }

  @Test
  void keepingEveryUnknownNameMakesASeriesPerName() throws Exception {
    server = startServer(TripleServer.builder().callObserver(TripleMetrics.server(registry, Tags.empty(), name -> true)).callObserver(afterMetrics));
    for (String path : List.of("/no.such.Service/A", "/made.up.Name/B")) {
      Curl.run("-o", "/dev/null", "-H", "content-type: application/json", "--data-binary", "{}",
          "http://127.0.0.1:" + server.port() + path);
    }
    afterMetrics.await(() -> serverEndedCount("no.such.Service/A") == 1 && serverEndedCount("made.up.Name/B") == 1,
        "both unknown calls ended under their names");
    assertNull(registry.find("grpc.server.call.started").tag("grpc.method", "other").counter());
    assertThrows(NullPointerException.class, () -> TripleMetrics.server(registry, Tags.empty(), null));
  }

  @Test
  void aRetriedCallIsThreeAttemptsAndOneCall() {
    server = startServer(TripleServer.builder().callObserver(TripleMetrics.server(registry)).callObserver(afterMetrics));
    target = "127.0.0.1:" + server.port();
    PingService pings = client(TripleClient.builder().callObserver(TripleMetrics.client(registry)).callObserver(afterMetrics)
        .retryPolicy(RetryPolicy.builder().maxAttempts(3).initialBackoff(Duration.ofMillis(1))
            .retryableStatusCodes(Status.Code.UNAVAILABLE).build(), SERVICE)).proxy(PingService.class);
    Ping failing = Ping.newBuilder().setFailCode(Status.Code.UNAVAILABLE.value()).build();
    assertThrows(StatusException.class, () -> pings.ping(failing));
    afterMetrics.await(() -> timerCount("grpc.client.call.duration", PING, "UNAVAILABLE") == 1
        && timerCount("grpc.client.attempt.duration", PING, "UNAVAILABLE") == 3, "the call and its attempts ended");
    awaitServerEnded(PING, 3);
    assertEquals(3, clientAttemptStarted(PING).count());
    assertEquals(3, timer("grpc.client.attempt.duration", PING, "UNAVAILABLE").count());
    assertEquals(1, timer("grpc.client.call.duration", PING, "UNAVAILABLE").count());
    assertEquals(3, serverStarted(PING, "grpc").count());
    assertEquals(3 * failing.getSerializedSize(),
        summary("grpc.client.attempt.sent_total_compressed_message_size", PING, "UNAVAILABLE").totalAmount());
  }

  @Test
  void theProtocolTagTellsGrpcGrpcWebAndConnectApart() throws Exception {
    PingService grpc = start();
    grpc.ping(ping("grpc"));
    client(TripleClient.builder().protocol(ClientProtocol.GRPC_WEB)).proxy(PingService.class).ping(ping("web"));
    String body = "{\"text\":\"curl\"}";
    assertEquals("{\"text\":\"curl\"}", Curl.run("-H", "content-type: application/json", "--data-binary", body,
        "http://127.0.0.1:" + server.port() + "/" + PING));
    awaitServerEnded(PING, 3);
    assertEquals(1, serverStarted(PING, "grpc").count());
    assertEquals(1, serverStarted(PING, "grpc-web").count());
    assertEquals(1, serverStarted(PING, "connect").count());
    Timer connect = registry.get("grpc.server.call.duration").tags("grpc.method", PING, "triple.protocol", "connect")
        .timer();
    assertEquals("OK", connect.getId().getTag("grpc.status"));
    assertEquals(body.length(), registry.get("grpc.server.call.rcvd_total_compressed_message_size")
        .tags("grpc.method", PING, "triple.protocol", "connect").summary().totalAmount(), "JSON bytes as they came");
  }

  @Test
  void durationsAndSizesHaveA66sBuckets() {
    start().ping(ping("a"));
    awaitEnded(PING, 1);
    CountAtBucket[] latency = timer("grpc.server.call.duration", PING, "OK").takeSnapshot().histogramCounts();
    assertEquals(40, latency.length);
    assertEquals(0.00001, latency[0].bucket(TimeUnit.SECONDS), 1e-12);
    assertEquals(0.065, latency[21].bucket(TimeUnit.SECONDS), 1e-12);
    assertEquals(100, latency[39].bucket(TimeUnit.SECONDS), 1e-9);
    CountAtBucket[] sizes = summary("grpc.server.call.rcvd_total_compressed_message_size", PING, "OK")
        .takeSnapshot().histogramCounts();
    assertEquals(13, sizes.length);
    assertEquals(1024, sizes[0].bucket());
    assertEquals(4294967296.0, sizes[12].bucket());
    assertEquals(1, sizes[0].count(), "a 3-byte request is in the first bucket");
  }

  @Test
  void metersAnApplicationDeniesAreLeftOutAndTheOthersStillCount() {
    // The Micrometer way to pay for fewer records: a denied meter is a no-op one.
    registry.config().meterFilter(MeterFilter.deny(id -> id.getName().endsWith("_compressed_message_size")));
    PingService pings = start();
    pings.ping(ping("a"));
    assertThrows(StatusException.class,
        () -> pings.ping(Ping.newBuilder().setFailCode(Status.Code.INVALID_ARGUMENT.value()).build()));
    awaitEnded(PING, 2);
    assertEquals(List.of(), registry.find("grpc.server.call.rcvd_total_compressed_message_size").meters());
    assertEquals(List.of(), registry.find("grpc.client.attempt.sent_total_compressed_message_size").meters());
    assertEquals(1, timer("grpc.server.call.duration", PING, "OK").count());
    assertEquals(1, timerCount("grpc.client.attempt.duration", PING, "INVALID_ARGUMENT"));
    assertEquals(2, clientAttemptStarted(PING).count());
  }

  @Test
  void gaugesFollowCallsConnectionsAndWrites() throws Exception {
    PingService pings = start();
    TripleMetrics.bind(server, registry);
    TripleClient client = (TripleClient) toClose.get(0);
    TripleMetrics.bind(client, registry);
    assertEquals(0, gauge("triple.server.connections"));
    assertEquals(0, gauge("triple.server.calls.active"));
    assertEquals(0, gauge("triple.client.calls.active"));

    Replies chatted = new Replies();
    StreamObserver<Ping> chat = pings.chat(chatted);
    chat.onNext(ping("open"));
    assertEquals("open", chatted.first.get(10, TimeUnit.SECONDS));
    // The server answered, so it has seen the call start; the client started it before that.
    assertEquals(1, gauge("triple.server.calls.active"));
    assertEquals(1, gauge("triple.client.calls.active"));
    assertEquals(1, gauge("triple.server.connections"));
    chat.onCompleted();
    chatted.done.get(10, TimeUnit.SECONDS);
    afterMetrics.await(() -> gauge("triple.server.calls.active") == 0 && gauge("triple.client.calls.active") == 0,
        "both sides saw the call end");

    // A write queue counts a drain's writes once they are flushed: the peer may have read them before. The
    // client's drains ran on the loop that then read the server's answer to them; the server's may still run.
    ServerTransports.of(server).writesSettled().get(10, TimeUnit.SECONDS);
    assertTrue(functionCounter("triple.server.write.commands") >= 2, "the reply and the trailers");
    assertTrue(functionCounter("triple.client.write.commands") >= 3, "headers, a message, the end");
    assertTrue(functionCounter("triple.server.write.flushes") >= 1);
    assertTrue(functionCounter("triple.client.write.flushes") >= 1);
    double written = functionCounter("triple.server.write.commands");

    client.close();
    afterMetrics.await(() -> gauge("triple.server.connections") == 0, "the connection closed");
    assertTrue(functionCounter("triple.server.write.commands") >= written, "a closed connection's writes stay counted");
  }

  @Test
  void twoServersInOneRegistryAddUpAndTheirTagsTellThemApart() throws Exception {
    TripleServer first = startServer(TripleServer.builder()
        .callObserver(TripleMetrics.server(registry, Tags.of("server", "first"))).callObserver(afterMetrics));
    server = startServer(TripleServer.builder().callObserver(TripleMetrics.server(registry)).callObserver(afterMetrics));
    TripleServer second = server;
    TripleServer third = startServer(TripleServer.builder().callObserver(TripleMetrics.server(registry)).callObserver(afterMetrics));
    TripleMetrics.bind(first, registry, Tags.of("server", "first"));
    TripleMetrics.bind(second, registry, Tags.of("server", "second"));
    for (TripleServer each : List.of(first, second, third)) {
      try (TripleClient client = TripleClient.builder().address("127.0.0.1", each.port()).build()) {
        client.proxy(PingService.class).ping(ping("x"));
      }
    }
    afterMetrics.await(() -> registry.find("grpc.server.call.duration").timers().stream()
        .mapToLong(Timer::count).sum() == 3, "three calls ended");
    assertEquals(1, registry.get("grpc.server.call.started").tags("server", "first").counter().count());
    assertEquals(2, registry.find("grpc.server.call.started").counters().stream()
        .filter(c -> c.getId().getTag("server") == null).mapToDouble(Counter::count).sum(), "the untagged two add up");
    assertNotNull(registry.get("triple.server.connections").tags("server", "second").gauge());
    assertEquals(2, registry.find("triple.server.connections").gauges().size());

    // Binding again with the same tags (a restarted server) replaces the earlier gauges.
    TripleMetrics.bind(third, registry, Tags.of("server", "second"));
    assertEquals(2, registry.find("triple.server.connections").gauges().size());
  }

  @Test
  void everyMeterCarriesTheTagsItWasGiven() {
    server = startServer(TripleServer.builder().callObserver(TripleMetrics.server(registry, Tags.of("app", "shop"))).callObserver(afterMetrics));
    target = "127.0.0.1:" + server.port();
    client(TripleClient.builder().callObserver(TripleMetrics.client(registry, Tags.of("app", "shop"))).callObserver(afterMetrics))
        .proxy(PingService.class).ping(ping("tagged"));
    awaitEnded(PING, 1);
    for (Meter meter : registry.getMeters()) {
      assertEquals("shop", meter.getId().getTag("app"), meter.getId().toString());
    }
    assertEquals(target, registry.get("grpc.client.call.duration").tag("app", "shop").timer().getId()
        .getTag("grpc.target"));
  }

  private Counter serverStarted(String method, String protocol) {
    return registry.get("grpc.server.call.started").tags("grpc.method", method, "triple.protocol", protocol).counter();
  }

  private Counter clientAttemptStarted(String method) {
    return registry.get("grpc.client.attempt.started").tags("grpc.method", method, "grpc.target", target).counter();
  }

  private Timer timer(String name, String method, String status) {
    return registry.get(name).tags("grpc.method", method, "grpc.status", status).timer();
  }

  private long timerCount(String name, String method, String status) {
    Timer timer = registry.find(name).tags("grpc.method", method, "grpc.status", status).timer();
    return timer == null ? 0 : timer.count();
  }

  private DistributionSummary summary(String name, String method, String status) {
    return registry.get(name).tags("grpc.method", method, "grpc.status", status).summary();
  }

  private long serverEndedCount(String method) {
    return endedCount("grpc.server.call.duration", method);
  }

  /** Servers tell observers a call ended after its client may have seen it end. */
  private void awaitServerEnded(String method, int calls) {
    afterMetrics.await(() -> serverEndedCount(method) == calls, calls + " calls of " + method + " ended on the server");
  }

  /**
   * Waits until {@code calls} calls of {@code method} (one attempt each) ended on both sides: observers hear of
   * an end after the caller may have (the sizes are recorded before the duration that this counts).
   */
  private void awaitEnded(String method, int calls) {
    awaitServerEnded(method, calls);
    afterMetrics.await(() -> endedCount("grpc.client.attempt.duration", method) == calls
        && endedCount("grpc.client.call.duration", method) == calls, calls + " calls of " + method + " ended on the client");
  }

  private long endedCount(String timer, String method) {
    return registry.find(timer).tag("grpc.method", method).timers().stream().mapToLong(Timer::count).sum();
  }

  private double gauge(String name) {
    Gauge gauge = registry.get(name).gauge();
    return gauge.value();
  }

  private double functionCounter(String name) {
    FunctionCounter counter = registry.get(name).functionCounter();
    return counter.count();
  }



  /** Collects replies; completes with them, or fails with the call's error. */
  private static final class Replies implements StreamObserver<Pong> {
    final List<String> texts = new ArrayList<>();
    final CompletableFuture<String> first = new CompletableFuture<>();
    final CompletableFuture<List<String>> done = new CompletableFuture<>();

    @Override
    public void onNext(Pong value) {
      texts.add(value.getText());
      first.complete(value.getText());
    }

    @Override
    public void onError(Throwable t) {
      first.completeExceptionally(t);
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(List.copyOf(texts));
    }
  }
}
