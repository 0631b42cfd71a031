package io.triplerpc.opentelemetry;

import static io.triplerpc.opentelemetry.RecordedSpans.messages;
import static io.triplerpc.opentelemetry.Relay.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.triplerpc.StreamObserver;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client calls server A, whose service calls server B, every hop traced: one trace of four spans
 * (client, A, A's client, B), each the child of the one before, for every call type, with a message
 * event per message on each span, counted from 1 on each side.
 */
class TraceAcrossHopsTest {

  private static final String SERVICE = "triple.tracing.Relay/";
  private static final List<Long> ONE = List.of(1L);
  private static final List<Long> THREE = List.of(1L, 2L, 3L);

  @RegisterExtension final TracedChain chain = new TracedChain();

  @Test
  void unaryCallIsOneTraceAcrossTwoHops() throws Exception {
    Relay relay = chain.start().relayA();
    Span root = chain.root();
    StringValue reply;
    try (Scope ignored = root.makeCurrent()) {
      reply = relay.unary(text("hi"));
    } finally {
      root.end();
    }
    assertEquals("b:hi", reply.getValue());
    assertChain(root, "Unary", ONE, ONE, ONE, ONE);
  }

  @Test
  void serverStreamingCallIsOneTraceWithAnEventPerResponse() throws Exception {
    Relay relay = chain.start().relayA();
    RecordingObserver<StringValue> responses = new RecordingObserver<>();
    Span root = chain.root();
    try (Scope ignored = root.makeCurrent()) {
      relay.serverStream(text("s"), responses);
    }
    responses.awaitEnd();
    root.end();
    assertNull(responses.error());
    assertEquals(List.of("b:s#1", "b:s#2", "b:s#3"), responses.values().stream().map(StringValue::getValue).toList());
    assertChain(root, "ServerStream", ONE, THREE, ONE, THREE);
  }

  @Test
  void clientStreamingCallIsOneTraceWithAnEventPerRequest() throws Exception {
    Relay relay = chain.start().relayA();
    RecordingObserver<StringValue> response = new RecordingObserver<>();
    Span root = chain.root();
    try (Scope ignored = root.makeCurrent()) {
      StreamObserver<StringValue> requests = relay.clientStream(response);
      requests.onNext(text("x"));
      requests.onNext(text("y"));
      requests.onNext(text("z"));
      requests.onCompleted();
    }
    response.awaitEnd();
    root.end();
    assertNull(response.error());
    assertEquals("b:xyz", response.values().get(0).getValue());
    assertChain(root, "ClientStream", THREE, ONE, THREE, ONE);
  }

  @Test
  void bidiStreamingCallIsOneTraceWithAnEventPerMessageEachWay() throws Exception {
    Relay relay = chain.start().relayA();
    RecordingObserver<StringValue> responses = new RecordingObserver<>();
    Span root = chain.root();
    try (Scope ignored = root.makeCurrent()) {
      StreamObserver<StringValue> requests = relay.bidi(responses);
      requests.onNext(text("1"));
      requests.onNext(text("2"));
      requests.onNext(text("3"));
      requests.onCompleted();
    }
    responses.awaitEnd();
    root.end();
    assertNull(responses.error());
    assertEquals(List.of("b:1", "b:2", "b:3"), responses.values().stream().map(StringValue::getValue).toList());
    assertChain(root, "Bidi", THREE, THREE, THREE, THREE);
  }

  @Test
  void theServiceRunsInsideItsServerSpan() throws Exception {
    Relay relay = chain.start().relayA();
    Span root = chain.root();
    try (Scope ignored = root.makeCurrent()) {
      relay.unary(text("hi"));
    } finally {
      root.end();
    }
    Hops hops = hops(root.getSpanContext().getSpanId(), "Unary");
    assertEquals(hops.serverA().getSpanContext(), chain.a.seen.peek().currentSpan());
    assertEquals(hops.serverB().getSpanContext(), chain.b.seen.peek().currentSpan());
  }

  @Test
  void aCallWithoutACurrentSpanStartsATrace() throws Exception {
    chain.start().relayA().unary(text("hi"));
    Hops hops = hops(null, "Unary");
    assertEquals(hops.client().getTraceId(), hops.serverB().getTraceId());
  }

  /** The spans of one call through the chain: the client's, A's, A's client's, B's. */
  private record Hops(SpanData client, SpanData serverA, SpanData clientOfA, SpanData serverB) {}

  /** The hops of a call of {@code method} whose client span's parent is {@code parentSpanId} (null: none). */
  private Hops hops(String parentSpanId, String method) throws InterruptedException {
    String name = SERVICE + method;
    List<SpanData> clientSpans = chain.spans.await(name, SpanKind.CLIENT, 2);
    List<SpanData> serverSpans = chain.spans.await(name, SpanKind.SERVER, 2);
    assertEquals(2, clientSpans.size(), "client spans: " + clientSpans);
    assertEquals(2, serverSpans.size(), "server spans: " + serverSpans);
    SpanData client = parentSpanId != null
        ? childOf(clientSpans, parentSpanId)
        : clientSpans.stream().filter(span -> !span.getParentSpanContext().isValid()).findFirst().orElseThrow();
    SpanData serverA = childOf(serverSpans, client.getSpanId());
    SpanData clientOfA = childOf(clientSpans, serverA.getSpanId());
    return new Hops(client, serverA, clientOfA, childOf(serverSpans, clientOfA.getSpanId()));
  }

  /**
   * The four spans of {@code method}, each a child of the one before, {@code root} the first's parent; with
   * the messages each sent and received.
   */
  private void assertChain(Span root, String method, List<Long> clientSent, List<Long> clientReceived,
      List<Long> hopSent, List<Long> hopReceived) throws InterruptedException {
    String name = SERVICE + method;
    Hops hops = hops(root.getSpanContext().getSpanId(), method);
    String traceId = root.getSpanContext().getTraceId();
    SpanData client = hops.client();
    SpanData serverA = hops.serverA();
    SpanData clientOfA = hops.clientOfA();
    SpanData serverB = hops.serverB();
    for (SpanData span : List.of(client, serverA, clientOfA, serverB)) {
      assertEquals(traceId, span.getTraceId(), span.toString());
      assertEquals(name, span.getAttributes().get(AttributeKey.stringKey("rpc.method")));
      assertEquals("grpc", span.getAttributes().get(AttributeKey.stringKey("rpc.system.name")));
      assertEquals("OK", span.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code")));
      assertNull(span.getAttributes().get(AttributeKey.stringKey("error.type")));
      assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
      assertEquals(TripleTracing.INSTRUMENTATION_NAME, span.getInstrumentationScopeInfo().getName());
    }
    assertServerAddress(client, chain.portOfA());
    assertServerAddress(clientOfA, chain.portOfB());
    assertPeer(serverA);
    assertPeer(serverB);

    assertEquals(clientSent, messages(client, "SENT"));
    assertEquals(clientReceived, messages(client, "RECEIVED"));
    assertEquals(clientSent, messages(serverA, "RECEIVED"));
    assertEquals(clientReceived, messages(serverA, "SENT"));
    assertEquals(hopSent, messages(clientOfA, "SENT"));
    assertEquals(hopReceived, messages(clientOfA, "RECEIVED"));
    assertEquals(hopSent, messages(serverB, "RECEIVED"));
    assertEquals(hopReceived, messages(serverB, "SENT"));
  }

  private static SpanData childOf(List<SpanData> spans, String parentSpanId) {
    return spans.stream().filter(span -> span.getParentSpanId().equals(parentSpanId)).findFirst()
        .orElseThrow(() -> new AssertionError("No span with parent " + parentSpanId + " among " + spans));
  }

  private static void assertServerAddress(SpanData client, int port) {
    assertEquals(SpanKind.CLIENT, client.getKind());
    assertEquals("127.0.0.1", client.getAttributes().get(AttributeKey.stringKey("server.address")));
    assertEquals(port, client.getAttributes().get(AttributeKey.longKey("server.port")));
  }

  private static void assertPeer(SpanData server) {
    assertEquals(SpanKind.SERVER, server.getKind());
    assertEquals("127.0.0.1", server.getAttributes().get(AttributeKey.stringKey("network.peer.address")));
    Long port = server.getAttributes().get(AttributeKey.longKey("network.peer.port"));
    assertTrue(port != null && port > 0, "network.peer.port " + port);
  }
}
