package io.triplerpc.opentelemetry;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import org.slf4j.MDC;

/** What a service saw of the trace while it ran: the current span, the baggage, the MDC. */
record Seen(SpanContext currentSpan, String tenant, String mdcTraceId, String mdcSpanId, String mdcMethod) {

  static Seen now() {
    return new Seen(Span.current().getSpanContext(), Baggage.current().getEntryValue("tenant"),
        MDC.get("trace_id"), MDC.get("span_id"), MDC.get("rpc.method"));
  }
}
