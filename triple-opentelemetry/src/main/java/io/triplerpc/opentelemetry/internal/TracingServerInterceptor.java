package io.triplerpc.opentelemetry.internal;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.triplerpc.ForwardingServerCall;
import io.triplerpc.ForwardingServerCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerContext;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;

/**
 * A {@code SERVER} span per call, a child of the context the request headers carry (a new trace when
 * they carry none), current while each of the service's callbacks runs, ended with the call's final
 * status when the call ends ({@link ServerContext#addEndListener}), on the transport's thread: so that
 * tracing never adds a hand-off to the service's executor at the end of a call.
 *
 * <p>Only calls that reach the interceptors are traced: a call of a method the server does not serve,
 * or one its access policy or concurrency limit refuses, is answered before them and has no span.
 */
public final class TracingServerInterceptor implements ServerInterceptor {

  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final boolean messageEvents;
  private final boolean mdc;

  public TracingServerInterceptor(Tracer tracer, TextMapPropagator propagator, boolean messageEvents, boolean mdc) {
    this.tracer = tracer;
    this.propagator = propagator;
    this.messageEvents = messageEvents;
    this.mdc = mdc;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String method = call.method().fullMethodName();
    // From the root, not the current context: the trace of a call is the one its request names, never
    // what a worker thread happens to hold.
    Context parent = propagator.extract(Context.root(), headers, MetadataCarrier.INSTANCE);
    SpanBuilder builder = tracer.spanBuilder(method)
        .setSpanKind(SpanKind.SERVER)
        .setParent(parent)
        .setAttribute(RpcAttributes.RPC_SYSTEM_NAME, RpcAttributes.systemOf(call.protocol()))
        .setAttribute(RpcAttributes.RPC_METHOD, method);
    Span span = builder.startSpan();
    boolean recording = span.isRecording();
    if (recording) {
      // Not among the attributes samplers see: set only on spans that keep them, saving a sampled-out
      // call the address string.
      RpcAttributes.setPeer(span, call.remoteAddress());
    }
    ServerSpan trace = new ServerSpan(span, parent.with(span), method, messageEvents && recording, mdc);
    if (recording) {
      // A span that records nothing (not sampled) needs no end.
      ServerContext.current().addEndListener(trace::end);
    }
    ServerCall<Q, R> traced = trace.messageEvents ? new TracedServerCall<>(call, trace) : call;
    ServerCall.Listener<Q> listener;
    try (Scope ignored = trace.enter()) {
      listener = next.startCall(traced, headers);
    }
    return new TracedListener<>(listener, trace);
  }

  /**
   * The span of one server call. The received count belongs to the call's executor, the sent count to the
   * thread sending responses (one at a time).
   */
  private static final class ServerSpan {

    final Span span;
    final Context context;
    final String method;
    final boolean messageEvents;
    final boolean mdc;
    private long received;
    private long sent;

    ServerSpan(Span span, Context context, String method, boolean messageEvents, boolean mdc) {
      this.span = span;
      this.context = context;
      this.method = method;
      this.messageEvents = messageEvents;
      this.mdc = mdc;
    }

    /** Makes the span current on this thread (and fills the MDC, if asked) until the scope closes. */
    Scope enter() {
      Scope scope = context.makeCurrent();
      return mdc ? MdcScope.open(scope, span.getSpanContext(), method) : scope;
    }

    void received() {
      if (messageEvents) {
        span.addEvent(RpcAttributes.MESSAGE_EVENT, RpcAttributes.received(++received));
      }
    }

    void sent() {
      span.addEvent(RpcAttributes.MESSAGE_EVENT, RpcAttributes.sent(++sent));
    }

    /** The call ended with {@code status}: the one it was closed with, or why it ended early. */
    void end(Status status) {
      RpcAttributes.endServer(span, status);
      span.end();
    }
  }

  /** Adds an event per message sent; only on calls whose span records message events. */
  private static final class TracedServerCall<Q, R> extends ForwardingServerCall<Q, R> {

    private final ServerSpan trace;

    TracedServerCall(ServerCall<Q, R> delegate, ServerSpan trace) {
      super(delegate);
      this.trace = trace;
    }

    @Override
    public void sendMessage(R message) {
      trace.sent();
      super.sendMessage(message);
    }
  }

  /**
   * Runs every callback inside the span. It leaves onComplete alone, so that a call whose service does not
   * listen for it ends without a hand-off to the service's executor.
   */
  private static final class TracedListener<Q> extends ForwardingServerCallListener<Q> {

    private final ServerSpan trace;

    TracedListener(ServerCall.Listener<Q> delegate, ServerSpan trace) {
      super(delegate);
      this.trace = trace;
    }

    @Override
    public void onMessage(Q message) {
      trace.received();
      try (Scope ignored = trace.enter()) {
        super.onMessage(message);
      }
    }

    @Override
    public void onHalfClose() {
      try (Scope ignored = trace.enter()) {
        super.onHalfClose();
      }
    }

    @Override
    public void onReady() {
      try (Scope ignored = trace.enter()) {
        super.onReady();
      }
    }

    @Override
    public void onCancel() {
      try (Scope ignored = trace.enter()) {
        super.onCancel();
      }
    }
  }
}
