package io.triplerpc.opentelemetry.internal;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Scope;
import org.slf4j.MDC;

/**
 * The call's trace and method in SLF4J's MDC while a service callback runs; closing it puts back the
 * values the thread had (a worker may run callbacks of other calls, or code with MDC values of its own).
 */
final class MdcScope implements Scope {

  /** The MDC keys, as OpenTelemetry's own logging instrumentations name the first two. */
  static final String TRACE_ID = "trace_id";
  static final String SPAN_ID = "span_id";
  static final String RPC_METHOD = "rpc.method";

  private final Scope context;
  /** Whether the span has valid ids; without (a no-op OpenTelemetry) the trace keys are left alone. */
  private final boolean traced;
  private final String previousTraceId;
  private final String previousSpanId;
  private final String previousMethod;

  private MdcScope(Scope context, SpanContext span, String method) {
    this.context = context;
    this.traced = span.isValid();
    this.previousTraceId = traced ? MDC.get(TRACE_ID) : null;
    this.previousSpanId = traced ? MDC.get(SPAN_ID) : null;
    this.previousMethod = MDC.get(RPC_METHOD);
    if (traced) {
      MDC.put(TRACE_ID, span.getTraceId());
      MDC.put(SPAN_ID, span.getSpanId());
    }
    MDC.put(RPC_METHOD, method);
  }

  /** Fills the MDC for the callback about to run; {@code context} is closed after the MDC is restored. */
  static Scope open(Scope context, SpanContext span, String method) {
    return new MdcScope(context, span, method);
  }

  @Override
  public void close() {
    restore(RPC_METHOD, previousMethod);
    if (traced) {
      restore(SPAN_ID, previousSpanId);
      restore(TRACE_ID, previousTraceId);
    }
    context.close();
  }

  private static void restore(String key, String previous) {
    if (previous == null) {
      MDC.remove(key);
    } else {
      MDC.put(key, previous);
    }
  }
}
