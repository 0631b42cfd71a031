package io.triplerpc.opentelemetry.internal;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A {@code CLIENT} span per call: started when the call starts, a child of the context current then,
 * injected into the request headers, ended when the listener hears the call's close. It covers the
 * logical call: retries and hedges below the interceptors are inside it.
 */
public final class TracingClientInterceptor implements ClientInterceptor {

  private final Tracer tracer;
  private final TextMapPropagator propagator;
  /** What the spans say of the servers, or null to say nothing. */
  private final ServerAddress server;
  /** The server's port, boxed once rather than per call; null when the target has none. */
  private final Long serverPort;
  private final boolean messageEvents;

  public TracingClientInterceptor(
      Tracer tracer, TextMapPropagator propagator, ServerAddress server, boolean messageEvents) {
    this.tracer = tracer;
    this.propagator = propagator;
    this.server = server;
    this.serverPort = server != null && server.port() >= 0 ? Long.valueOf(server.port()) : null;
    this.messageEvents = messageEvents;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
    return new TracedCall<>(next.newCall(method, options), method);
  }

  /**
   * The call, with its span. The span's fields are written by start and read after it; the message
   * counters belong one to the sending side, one to the listener, as the {@link ClientCall} contract
   * keeps each side to one thread at a time.
   */
  private final class TracedCall<Q, R> extends ForwardingClientCall<Q, R> {

    private final MethodDescriptor<Q, R> method;
    private Span span;
    private boolean recording;
    private long sent;

    TracedCall(ClientCall<Q, R> delegate, MethodDescriptor<Q, R> method) {
      super(delegate);
      this.method = method;
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      Context parent = Context.current();
      SpanBuilder builder = tracer.spanBuilder(method.fullMethodName())
          .setSpanKind(SpanKind.CLIENT)
          .setParent(parent)
          .setAttribute(RpcAttributes.RPC_SYSTEM_NAME, RpcAttributes.GRPC)
          .setAttribute(RpcAttributes.RPC_METHOD, method.fullMethodName());
      if (server != null) {
        builder.setAttribute(RpcAttributes.SERVER_ADDRESS, server.address());
        if (serverPort != null) {
          builder.setAttribute(RpcAttributes.SERVER_PORT, serverPort);
        }
      }
      span = builder.startSpan();
      recording = messageEvents && span.isRecording();
      TracedListener<R> traced = new TracedListener<>(listener, span, parent, recording);
      try {
        propagator.inject(parent.with(span), headers, MetadataCarrier.INSTANCE);
        super.start(traced, headers);
      } catch (RuntimeException | Error e) {
        if (traced.end()) {
          RpcAttributes.recordFailure(span, e);
          span.end();
        }
        throw e;
      }
    }

    @Override
    public void sendMessage(Q message) {
      if (recording) {
        span.addEvent(RpcAttributes.MESSAGE_EVENT, RpcAttributes.sent(++sent));
      }
      super.sendMessage(message);
    }
  }

  /**
   * Ends the span on the call's close, before the application hears of it; runs each event with the
   * context of the call's caller current, so that what the application does on a response belongs to
   * the caller's trace (and not to this call's span, which has ended or is about to).
   */
  private static final class TracedListener<R> extends ForwardingClientCallListener<R> {

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<TracedListener> ENDED =
        AtomicIntegerFieldUpdater.newUpdater(TracedListener.class, "ended");

    private final Span span;
    private final Context parent;
    private final boolean recording;
    private volatile int ended;
    /** Touched by the listener's events only, one at a time. */
    private long received;

    TracedListener(ClientCall.Listener<R> delegate, Span span, Context parent, boolean recording) {
      super(delegate);
      this.span = span;
      this.parent = parent;
      this.recording = recording;
    }

    /**
     * Makes the caller's context current for a callback. A blocking call's callbacks run on the caller's
     * thread, where it already is: no scope to make then.
     */
    private Scope enterParent() {
      return Context.current() == parent ? Scope.noop() : parent.makeCurrent();
    }

    /** Whether this is the first to end the span. */
    boolean end() {
      return ENDED.compareAndSet(this, 0, 1);
    }

    @Override
    public void onHeaders(Metadata headers) {
      try (Scope ignored = enterParent()) {
        super.onHeaders(headers);
      }
    }

    @Override
    public void onMessage(R message) {
      if (recording) {
        span.addEvent(RpcAttributes.MESSAGE_EVENT, RpcAttributes.received(++received));
      }
      try (Scope ignored = enterParent()) {
        super.onMessage(message);
      }
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      if (end()) {
        RpcAttributes.endClient(span, status);
        span.end();
      }
      try (Scope ignored = enterParent()) {
        super.onClose(status, trailers);
      }
    }

    @Override
    public void onReady() {
      try (Scope ignored = enterParent()) {
        super.onReady();
      }
    }
  }
}
