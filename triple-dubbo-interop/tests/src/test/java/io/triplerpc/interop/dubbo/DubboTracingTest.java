package io.triplerpc.interop.dubbo;

import static io.triplerpc.interop.dubbo.DubboProcess.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.interop.dubbo.api.TraceHop;
import io.triplerpc.opentelemetry.TripleTracing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A trace crosses Apache Dubbo 3.3.6 (its own JVM, its tracing on: OpenTelemetry through Micrometer
 * Tracing, W3C propagation) both ways. Triple client → Dubbo provider → Triple server: Dubbo's server
 * span continues the Triple client's trace, and the Triple server's span continues Dubbo's client span's.
 * The caller's baggage reaches both services. Dubbo consumer → Triple server: the server's span continues
 * the trace Dubbo started. Without Dubbo's
 * tracing Dubbo passes the trace context on untouched, which the control test tells apart.
 *
 * <p>Dubbo reports the span it runs the service in through OpenTelemetry's API ({@code traceHop}); Triple's
 * spans are read as they start, a server's before its service runs, so a call that returned has them all.
 */
class DubboTracingTest {

  private static final String TRACE_HOP = PlainService.class.getName() + "/traceHop";

  private final StartedSpans spans = new StartedSpans();
  private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(spans).build())
      .setPropagators(ContextPropagators.create(
          TextMapPropagator.composite(W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance())))
      .build();
  private final TripleTracing tracing = TripleTracing.create(sdk);
  private final List<AutoCloseable> resources = new ArrayList<>();
  private TripleServer server;

  /** The Triple server, traced, that the Dubbo peers call. */
  @BeforeEach
  void startServer() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PlainService.class, new TriplePlainService())
        .intercept(tracing.serverInterceptor())
        .build().start();
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable resource : resources) {
      resource.close();
    }
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
    sdk.close();
  }

  @Test
  void aTraceCrossesADubboProviderBothWays() throws Exception {
    DubboProcess dubbo = started(DubboProcess.provider("--tracing", "--relay=127.0.0.1:" + server.port()));
    Span test = sdk.getTracer("test").spanBuilder("test").startSpan();
    String answer;
    try (Scope inTest = test.makeCurrent();
        Scope withBaggage = Baggage.builder().put("tenant", "acme").build().makeCurrent()) {
      answer = plainServiceAt(dubbo.port()).traceHop();
    } finally {
      test.end();
    }

    String[] hops = answer.split(TraceHop.SEPARATOR);
    assertEquals(2, hops.length, answer);
    SpanContext dubboServer = spanContext(hops[0]);
    // The baggage reaches Dubbo's service, and the Triple service behind it.
    assertTrue(hops[0].endsWith(" baggage tenant=acme"), answer);
    assertTrue(hops[1].endsWith(" baggage tenant=acme"), answer);
    ReadableSpan client = spans.one(SpanKind.CLIENT);
    ReadableSpan tripleServer = spans.one(SpanKind.SERVER);
    String trace = test.getSpanContext().getTraceId();
    assertEquals(trace, client.getSpanContext().getTraceId());
    assertEquals(test.getSpanContext().getSpanId(), client.getParentSpanContext().getSpanId());
    // Dubbo's server span: in the Triple client's trace, a span of its own.
    assertEquals(trace, dubboServer.getTraceId(), () -> "Dubbo did not continue the trace: " + answer);
    assertNotEquals(client.getSpanContext().getSpanId(), dubboServer.getSpanId());
    // The Triple server's span: in the same trace, the child of a span in Dubbo's JVM (its client span),
    // neither the Triple client's nor Dubbo's server span, and sampled as the trace is.
    assertEquals(trace, tripleServer.getSpanContext().getTraceId(), () -> "the trace broke in Dubbo: " + answer);
    SpanContext parent = tripleServer.getParentSpanContext();
    assertTrue(parent.isRemote() && parent.isValid() && parent.isSampled(), parent::toString);
    assertNotEquals(client.getSpanContext().getSpanId(), parent.getSpanId());
    assertNotEquals(dubboServer.getSpanId(), parent.getSpanId());
    // The span the Triple service ran in is the server span.
    assertEquals(tripleServer.getSpanContext().getSpanId(), spanContext(hops[1]).getSpanId());
  }

  @Test
  void aDubboConsumerStartsATraceThatATripleServerContinues() throws Exception {
    DubboProcess dubbo = started(DubboProcess.consumer("127.0.0.1:" + server.port(), "--tracing"));
    SpanContext first = spanContext(result(dubbo.call(PlainService.class, "traceHop"), String.class));
    SpanContext second = spanContext(result(dubbo.call(PlainService.class, "traceHop"), String.class));

    List<ReadableSpan> served = spans.of(SpanKind.SERVER);
    assertEquals(2, served.size(), served::toString);
    for (int i = 0; i < 2; i++) {
      SpanContext ran = i == 0 ? first : second;
      ReadableSpan span = served.get(i);
      assertEquals(TRACE_HOP, span.getName());
      assertEquals(ran.getSpanId(), span.getSpanContext().getSpanId());
      SpanContext parent = span.getParentSpanContext();
      assertTrue(parent.isRemote() && parent.isValid() && parent.isSampled(),
          () -> "no trace from Dubbo: " + parent);
      assertEquals(parent.getTraceId(), ran.getTraceId());
    }
    // Each Dubbo call without a parent starts a trace of its own.
    assertNotEquals(first.getTraceId(), second.getTraceId());
  }

  /**
   * The control: a Dubbo provider without its tracing makes no spans, and the {@code traceparent} it
   * received reaches the Triple server unchanged (Dubbo 3.3.6 passes a call's attachments on to the calls
   * its service makes), so the server's parent is the Triple client's span itself. With Dubbo's tracing
   * the parent is a span of Dubbo's, as the first test asserts.
   */
  @Test
  void withoutDubbosTracingTheTraceContextPassesThroughDubboUnchanged() throws Exception {
    DubboProcess dubbo = started(DubboProcess.provider("--relay=127.0.0.1:" + server.port()));
    String answer = plainServiceAt(dubbo.port()).traceHop();

    assertTrue(answer.startsWith("-" + TraceHop.SEPARATOR), answer);
    ReadableSpan client = spans.one(SpanKind.CLIENT);
    ReadableSpan tripleServer = spans.one(SpanKind.SERVER);
    assertEquals(client.getSpanContext().getTraceId(), tripleServer.getSpanContext().getTraceId());
    assertEquals(client.getSpanContext().getSpanId(), tripleServer.getParentSpanContext().getSpanId());
  }

  private DubboProcess started(DubboProcess dubbo) {
    resources.add(dubbo);
    return dubbo;
  }

  /** Dubbo's {@code PlainService} at {@code port}, through a traced Triple client. */
  private PlainService plainServiceAt(int port) {
    String target = "127.0.0.1:" + port;
    TripleClient client = TripleClient.builder().address(target).intercept(tracing.clientInterceptor(target)).build();
    resources.add(client);
    return client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
  }

  /** The span of a hop as {@code traceHop} reports it: {@code traceId/spanId}, maybe followed by baggage. */
  private static SpanContext spanContext(String hop) {
    String[] ids = hop.split(" ", 2)[0].split("/");
    assertEquals(2, ids.length, () -> "no span in " + hop);
    SpanContext span = SpanContext.create(ids[0], ids[1], TraceFlags.getDefault(), TraceState.getDefault());
    assertTrue(span.isValid(), hop);
    return span;
  }

  /** The spans of this JVM's SDK as they start, in order. */
  private static final class StartedSpans implements SpanProcessor {

    private final ConcurrentLinkedQueue<ReadableSpan> started = new ConcurrentLinkedQueue<>();

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
      started.add(span);
    }

    @Override
    public boolean isStartRequired() {
      return true;
    }

    @Override
    public void onEnd(ReadableSpan span) {}

    @Override
    public boolean isEndRequired() {
      return false;
    }

    List<ReadableSpan> of(SpanKind kind) {
      List<ReadableSpan> found = new ArrayList<>();
      for (ReadableSpan span : started) {
        if (span.getKind() == kind && span.getName().equals(TRACE_HOP)) {
          found.add(span);
        }
      }
      return found;
    }

    ReadableSpan one(SpanKind kind) {
      List<ReadableSpan> found = of(kind);
      assertEquals(1, found.size(), () -> "spans of kind " + kind + ": " + found);
      return found.get(0);
    }
  }
}
