package io.triplerpc.opentelemetry;

import static io.triplerpc.opentelemetry.Relay.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.opentelemetry.internal.ServerAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The options of {@link TripleTracing}, and what it makes of a client's target. */
class TripleTracingTest {

  @RegisterExtension final TracedChain chain = new TracedChain();

  @Test
  void aClientWithoutATargetLeavesTheServerOut() throws Exception {
    chain.start();
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", chain.portOfB())
        .intercept(chain.tracing.clientInterceptor()).build()) {
      client.proxy(Relay.class).unary(text("hi"));
    }
    SpanData span = chain.spans.await("triple.tracing.Relay/Unary", SpanKind.CLIENT);
    assertNull(span.getAttributes().get(AttributeKey.stringKey("server.address")));
    assertNull(span.getAttributes().get(AttributeKey.longKey("server.port")));
    assertEquals("OK", span.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code")));
  }

  @Test
  void messageEventsCanBeLeftOut() throws Exception {
    chain.start(tracing -> tracing.messageEvents(false), null).relayA().unary(text("hi"));
    for (SpanData span : chain.spans.await("triple.tracing.Relay/Unary", SpanKind.SERVER, 2)) {
      assertTrue(span.getEvents().isEmpty(), span.toString());
    }
    for (SpanData span : chain.spans.await("triple.tracing.Relay/Unary", SpanKind.CLIENT, 2)) {
      assertTrue(span.getEvents().isEmpty(), span.toString());
    }
  }

  @Test
  void withANoopOpenTelemetryCallsWorkAndTheMdcNamesOnlyTheMethod() throws Exception {
    TripleTracing noop = TripleTracing.builder(OpenTelemetry.noop()).mdc(true).build();
    EchoRelay service = new EchoRelay();
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0).addService(Relay.class, service)
        .intercept(noop.serverInterceptor()).build().start();
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port())
        .intercept(noop.clientInterceptor("127.0.0.1:" + server.port())).build()) {
      assertEquals("b:hi", client.proxy(Relay.class).unary(text("hi")).getValue());
    } finally {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
    Seen seen = service.seen.peek();
    assertNull(seen.mdcTraceId());
    assertNull(seen.mdcSpanId());
    assertEquals("triple.tracing.Relay/Unary", seen.mdcMethod());
  }

  @Test
  void aTargetNamesTheServerAsTheConventionsReadAChannelTarget() {
    assertEquals(new ServerAddress("orders.example", 50051), ServerAddress.parse("orders.example:50051"));
    assertEquals(new ServerAddress("10.1.2.80", 443), ServerAddress.parse("10.1.2.80:443"));
    assertEquals(new ServerAddress("::1", 8080), ServerAddress.parse("[::1]:8080"));
    assertEquals(new ServerAddress("grpc.io", 50051), ServerAddress.parse("dns://1.2.3.4/grpc.io:50051"));
    assertEquals(new ServerAddress("grpc.io", 50051), ServerAddress.parse("dns:///grpc.io:50051"));
    assertEquals(new ServerAddress("orders.example", -1), ServerAddress.parse("orders.example"));
    assertEquals(new ServerAddress("zookeeper://zk1:2181,zk2:2181", -1),
        ServerAddress.parse("zookeeper://zk1:2181,zk2:2181"));
    assertEquals(new ServerAddress("registry://127.0.0.1:7070", -1), ServerAddress.parse("registry://127.0.0.1:7070"));
    assertEquals(new ServerAddress("fe80::1", -1), ServerAddress.parse("fe80::1"));
  }

  @Test
  void badArgumentsAreRefusedAtOnce() {
    assertThrows(NullPointerException.class, () -> TripleTracing.create(null));
    TripleTracing tracing = TripleTracing.create(OpenTelemetry.noop());
    assertThrows(NullPointerException.class, () -> tracing.clientInterceptor(null));
    assertThrows(IllegalArgumentException.class, () -> tracing.clientInterceptor(""));
  }
}
