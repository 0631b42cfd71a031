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
 * they carry none), current while each of the service's callbacks runs, ended after the call's last
 * event ({@code onComplete} or {@code onCancel}).
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
    RpcAttributes.setPeer(builder, call.remoteAddress());
    Span span = builder.startSpan();
    ServerSpan trace = new ServerSpan(span, parent.with(span), method, messageEvents && span.isRecording(), mdc);
    ServerCall.Listener<Q> listener;
    Scope scope = trace.enter();
    try {
      listener = next.startCall(new TracedServerCall<>(call, trace), headers);
    } catch (RuntimeException | Error e) {
      // The server closes the call with this failure, and no listener of ours hears the end: end here.
      trace.threw(e);
      trace.end(null);
      throw e;
    } finally {
      scope.close();
    }
    return new TracedListener<>(listener, trace);
  }

  /**
   * The span of one server call and what it learns of the outcome. The status comes from the
   * service's close (any thread, one at a time) or from a callback's exception (the call's executor);
   * the end and the received count belong to the call's executor, the sent count to the sending thread.
   */
  private static final class ServerSpan {

    final Span span;
    final Context context;
    final String method;
    final boolean recording;
    final boolean mdc;
    /** How the call was closed, as the service (or an exception from it) said; null until then. */
    private volatile Status status;
    private boolean ended;
    private long received;
    private long sent;

    ServerSpan(Span span, Context context, String method, boolean recording, boolean mdc) {
      this.span = span;
      this.context = context;
      this.method = method;
      this.recording = recording;
      this.mdc = mdc;
    }

    /** Makes the span current on this thread (and fills the MDC, if asked) until the scope closes. */
    Scope enter() {
      Scope scope = context.makeCurrent();
      return mdc ? MdcScope.open(scope, span.getSpanContext(), method) : scope;
    }

    void closing(Status closed) {
      if (status == null) {
        status = closed;
      }
    }

    /** A callback threw: the server closes the call with the status of {@code failure}, unless already closed. */
    void threw(Throwable failure) {
      closing(Status.fromThrowable(failure));
    }

    void received() {
      if (recording) {
        span.addEvent(RpcAttributes.MESSAGE_EVENT, RpcAttributes.received(++received));
      }
    }

    void sent() {
      if (recording) {
        span.addEvent(RpcAttributes.MESSAGE_EVENT, RpcAttributes.sent(++sent));
      }
    }

    /**
     * Ends the span with {@code outcome}, or with the status the call was closed with when null. A call
     * the server closed without its interceptors seeing it (a request message it could not decode) ends
     * without a status code.
     */
    void end(Status outcome) {
      if (ended) {
        return;
      }
      ended = true;
      Status recorded = outcome != null ? outcome : status;
      if (recorded != null) {
        RpcAttributes.endServer(span, recorded);
      }
      span.end();
    }
  }

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

    @Override
    public void close(Status status, Metadata trailers) {
      trace.closing(status);
      super.close(status, trailers);
    }
  }

  /** Runs every callback inside the span, and ends it after the call's last one. */
  private static final class TracedListener<Q> extends ForwardingServerCallListener<Q> {

    private final ServerSpan trace;

    TracedListener(ServerCall.Listener<Q> delegate, ServerSpan trace) {
      super(delegate);
      this.trace = trace;
    }

    @Override
    public void onMessage(Q message) {
      trace.received();
      Scope scope = trace.enter();
      try {
        super.onMessage(message);
      } catch (RuntimeException | Error e) {
        trace.threw(e);
        throw e;
      } finally {
        scope.close();
      }
    }

    @Override
    public void onHalfClose() {
      Scope scope = trace.enter();
      try {
        super.onHalfClose();
      } catch (RuntimeException | Error e) {
        trace.threw(e);
        throw e;
      } finally {
        scope.close();
      }
    }

    @Override
    public void onReady() {
      Scope scope = trace.enter();
      try {
        super.onReady();
      } catch (RuntimeException | Error e) {
        trace.threw(e);
        throw e;
      } finally {
        scope.close();
      }
    }

    @Override
    public void onCancel() {
      Status outcome = cancellation();
      Scope scope = trace.enter();
      try {
        super.onCancel();
      } finally {
        scope.close();
        trace.end(outcome);
      }
    }

    @Override
    public void onComplete() {
      Scope scope = trace.enter();
      try {
        super.onComplete();
      } finally {
        scope.close();
        trace.end(null);
      }
    }

    /**
     * Why the call ended early, as far as the server can tell: its deadline passed, or else the client
     * went away (a cancel, a reset, a lost connection all look alike from here).
     */
    private static Status cancellation() {
      try {
        return ServerContext.current().remainingNanos() <= 0 ? Status.DEADLINE_EXCEEDED : Status.CANCELLED;
      } catch (IllegalStateException e) {
        return Status.CANCELLED; // an interceptor outside this one moved the callback off the service thread
      }
    }
  }
}
