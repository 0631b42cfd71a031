package io.triplerpc.opentelemetry;

import static io.triplerpc.opentelemetry.Relay.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.protobuf.StringValue;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.triplerpc.StreamObserver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.MDC;

/**
 * What a service sees besides its span: the trace in SLF4J's MDC when asked for (and the worker's own
 * values back after each callback), and the caller's baggage, hop after hop.
 */
class MdcAndBaggageTest {

  @RegisterExtension final TracedChain chain = new TracedChain();

  private final ExecutorService workers = Executors.newFixedThreadPool(2);
  /** What a worker's MDC held after each task of server A: its own values, or the call's if they leaked. */
  private final Queue<List<String>> afterTasks = new ConcurrentLinkedQueue<>();

  @AfterEach
  void stopWorkers() throws InterruptedException {
    workers.shutdownNow();
    workers.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** Runs A's tasks on threads whose MDC already holds values, and notes what it holds after each. */
  private void runOnWorkersWithMdcOfTheirOwn(Runnable task) {
    workers.execute(() -> {
      MDC.put("trace_id", "the worker's");
      try {
        task.run();
      } finally {
        afterTasks.add(Arrays.asList(MDC.get("trace_id"), MDC.get("span_id"), MDC.get("rpc.method")));
        MDC.clear();
      }
    });
  }

  @Test
  void theServiceSeesItsTraceInTheMdcAndTheWorkerGetsItsOwnBack() throws Exception {
    Relay relay = chain.start(tracing -> tracing.mdc(true), this::runOnWorkersWithMdcOfTheirOwn).relayA();
    relay.unary(text("hi"));
    RecordingObserver<StringValue> responses = new RecordingObserver<>();
    StreamObserver<StringValue> requests = relay.bidi(responses);
    requests.onNext(text("1"));
    requests.onCompleted();
    responses.awaitEnd();

    SpanData unary = serverSpanOfA("triple.tracing.Relay/Unary");
    SpanData bidi = serverSpanOfA("triple.tracing.Relay/Bidi");
    List<Seen> seen = new ArrayList<>(chain.a.seen);
    // The unary call's one callback; the bidi call's start and its one message.
    assertEquals(3, seen.size(), seen.toString());
    assertMdcOf(unary, seen.get(0));
    assertMdcOf(bidi, seen.get(1));
    assertMdcOf(bidi, seen.get(2));
    assertFalse(afterTasks.isEmpty());
    for (List<String> after : afterTasks) {
      assertEquals(Arrays.asList("the worker's", null, null), after);
    }
  }

  @Test
  void theMdcIsLeftAloneUnlessAskedFor() throws Exception {
    chain.start().relayA().unary(text("hi"));
    Seen seen = chain.a.seen.peek();
    assertNull(seen.mdcTraceId());
    assertNull(seen.mdcSpanId());
    assertNull(seen.mdcMethod());
  }

  @Test
  void baggageCrossesEveryHop() throws Exception {
    Relay relay = chain.start().relayA();
    Baggage baggage = Baggage.builder().put("tenant", "acme").build();
    try (Scope ignored = Context.current().with(baggage).makeCurrent()) {
      relay.unary(text("hi"));
    }
    assertEquals("acme", chain.a.seen.peek().tenant());
    assertEquals("acme", chain.b.seen.peek().tenant());
  }

  private SpanData serverSpanOfA(String name) throws InterruptedException {
    List<SpanData> servers = chain.spans.await(name, SpanKind.SERVER, 2);
    List<SpanData> clients = chain.spans.await(name, SpanKind.CLIENT, 2);
    SpanData first = clients.stream().filter(span -> !span.getParentSpanContext().isValid()).findFirst().orElseThrow();
    return servers.stream().filter(span -> span.getParentSpanId().equals(first.getSpanId())).findFirst().orElseThrow();
  }

  private static void assertMdcOf(SpanData span, Seen seen) {
    assertEquals(span.getTraceId(), seen.mdcTraceId());
    assertEquals(span.getSpanId(), seen.mdcSpanId());
    assertEquals(span.getName(), seen.mdcMethod());
  }
}
