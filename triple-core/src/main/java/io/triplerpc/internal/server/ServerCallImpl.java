package io.triplerpc.internal.server;

import io.netty.buffer.ByteBuf;
import io.triplerpc.ForwardingServerCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.PeerInfo;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.internal.SerializingExecutor;
import io.triplerpc.internal.VirtualThreads;
import io.triplerpc.internal.rest.RestErrors;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageCodecs;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.internal.wire.MessageFramer;
import java.net.SocketAddress;
import java.security.Principal;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server call every handler chain starts from: stream events (event loop) become listener calls
 * on the call's serializing executor, with the call's {@link ServerContext} current; responses are
 * framed on the thread that sends them and queued on the connection's write queue.
 */
final class ServerCallImpl<Q, R> extends ServerCall<Q, R> implements ServerStreamListener {

  private static final Logger log = LoggerFactory.getLogger(ServerCallImpl.class);

  private final ServerStream stream;
  private final MethodDescriptor<Q, R> method;
  private final InboundRequest request;
  private final SerializingExecutor callExecutor;
  private final int maxInboundMessageSize;
  private final ServerCallContext context;

  /**
   * Where a listener class's onComplete comes from: Listener (it does nothing), ForwardingServerCallListener
   * (it passes it on) or another class (it does something); decided once per class.
   */
  private static final ClassValue<Class<?>> ON_COMPLETE_DECLARED_BY = new ClassValue<>() {
    @Override
    protected Class<?> computeValue(Class<?> type) {
      try {
        return type.getMethod("onComplete").getDeclaringClass();
      } catch (NoSuchMethodException e) {
        return type;
      }
    }
  };

  /**
   * Set by the start task; read by later tasks on the same serializing executor, and by onComplete,
   * which follows the close that follows the start.
   */
  private Listener<Q> listener;

  // Touched by the thread sending responses, one at a time.
  private boolean headersSent;
  private boolean closeCalled;
  /** The status the call was closed with, for the end listeners; read on the event loop after the close. */
  private volatile Status closedWith;
  private MessageEncoding responseEncoding;
  private boolean messageCompression = true;

  private volatile boolean cancelled;
  /**
   * 1 while the call's executor is suspended for an asynchronous authenticator; whoever moves it to 0
   * (the verdict, or a cancel) resumes the executor, once.
   */
  private volatile int authenticating;
  private static final AtomicIntegerFieldUpdater<ServerCallImpl> AUTHENTICATING =
      AtomicIntegerFieldUpdater.newUpdater(ServerCallImpl.class, "authenticating");
  private volatile ScheduledFuture<?> deadlineTimer;

  /*
   * A unary call's handler and request, held on the event loop from the start until the half-close, so
   * that start, request and half-close reach the executor as one task: one hand-off and one switch of
   * context for the three. Any other event first releases them, in order, as tasks of their own.
   * Event loop only.
   */
  private ServerCallHandler<Q, R> heldHandler;
  private ByteBuf heldPayload;
  private boolean heldCompressed;

  ServerCallImpl(
      ServerStream stream,
      MethodDescriptor<Q, R> method,
      InboundRequest request,
      Executor executor,
      int maxInboundMessageSize) {
    this.stream = stream;
    this.method = method;
    this.request = request;
    this.callExecutor = new SerializingExecutor(executor);
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.context = new ServerCallContext(this, request.headers(), request.timeoutNanos(), stream::nanoTime);
  }

  /**
   * Called on the event loop: arms the deadline and starts the handler on the call's executor, once
   * the caller passed {@code access} (null for none).
   */
  void start(ServerCallHandler<Q, R> handler, MethodAccess access) {
    long timeoutNanos = request.timeoutNanos();
    if (timeoutNanos > 0) {
      deadlineTimer = stream.scheduler().schedule(
          () -> stream.cancel(Status.DEADLINE_EXCEEDED.withDescription(
              "Deadline of " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms exceeded on the server")),
          timeoutNanos,
          TimeUnit.NANOSECONDS);
    }
    // The first request messages are asked for here, on the event loop, so that a unary call costs
    // no hop back to it; streaming handlers ask for the rest as they consume.
    boolean oneRequest = method.type().clientSendsOneMessage();
    stream.request(oneRequest ? 2 : 1);
    if (oneRequest && access == null) {
      // The handler can do nothing before its one request (or the half-close, cancel or deadline
      // that replaces it), and that event always follows: start with it.
      heldHandler = handler;
      return;
    }
    Runnable startCall = access == null ? () -> startHandler(handler) : () -> authenticate(handler, access);
    if (oneRequest) {
      callExecutor.executeLater(startCall);
    } else {
      callExecutor.execute(startCall);
    }
  }

  /** Queues what {@link #heldHandler} holds, in order, ahead of the event that comes now. Event loop. */
  private void releaseHeld() {
    ServerCallHandler<Q, R> handler = heldHandler;
    if (handler == null) {
      return;
    }
    heldHandler = null;
    callExecutor.executeLater(() -> startHandler(handler));
    ByteBuf payload = heldPayload;
    if (payload != null) {
      heldPayload = null;
      boolean compressed = heldCompressed;
      callExecutor.executeLater(() -> deliverMessage(payload, compressed));
    }
  }

  /** A unary call's start, request (null if none came) and half-close, as one task with one context switch. */
  private void startUnary(ServerCallHandler<Q, R> handler, ByteBuf payload, boolean compressed) {
    ServerContext previous = context.enter();
    try {
      startHandler(handler);
      if (payload != null) {
        deliverMessage(payload, compressed);
      }
      halfClose();
    } finally {
      context.exit(previous);
    }
  }

  private void startHandler(ServerCallHandler<Q, R> handler) {
    ServerContext previous = context.enter();
    try {
      listener = handler.startCall(this, request.headers());
    } catch (RuntimeException | Error e) {
      listener = new Listener<>() {};
      closeWithThrowable(e);
    } finally {
      context.exit(previous);
    }
  }

  /**
   * Asks the authenticator who calls, then starts the handler if the rule lets that principal call.
   * While an asynchronous authenticator works, the call's later events wait in its executor.
   */
  private void authenticate(ServerCallHandler<Q, R> handler, MethodAccess access) {
    CompletableFuture<? extends Principal> principal;
    ServerContext previous = context.enter();
    try {
      principal = access.authenticator().authenticate(context).toCompletableFuture();
    } catch (RuntimeException e) {
      principal = CompletableFuture.failedFuture(e);
    } finally {
      context.exit(previous);
    }
    if (principal.isDone()) {
      admit(handler, access, principal);
      return;
    }
    callExecutor.suspend();
    authenticating = 1;
    if (cancelled && AUTHENTICATING.compareAndSet(this, 1, 0)) {
      // Cancelled before the wait began: onCancel could not end it.
      callExecutor.resume(() -> listener = new Listener<>() {});
      return;
    }
    CompletableFuture<? extends Principal> answer = principal;
    answer.whenComplete((p, t) -> {
      if (AUTHENTICATING.compareAndSet(this, 1, 0)) {
        callExecutor.resume(() -> admit(handler, access, answer));
      }
    });
  }

  private void admit(
      ServerCallHandler<Q, R> handler, MethodAccess access, CompletableFuture<? extends Principal> authentication) {
    Status refusal;
    Principal principal = null;
    try {
      principal = authentication.join();
      refusal = principal == null ? Status.UNAUTHENTICATED.withDescription("Unauthenticated") : null;
    } catch (CompletionException | CancellationException e) {
      Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
      if (cause instanceof StatusException) {
        refusal = ((StatusException) cause).status();
      } else {
        log.warn("Authenticator of {} failed", method.fullMethodName(), cause);
        refusal = Status.INTERNAL.withDescription("Authentication failed on the server");
      }
    }
    if (refusal == null) {
      context.setPrincipal(principal);
      ServerContext previous = context.enter();
      try {
        if (!access.rule().test(principal, context)) {
          refusal = Status.PERMISSION_DENIED.withDescription("Permission denied for " + method.fullMethodName());
        }
      } catch (StatusException e) {
        refusal = e.status();
      } catch (RuntimeException e) {
        log.warn("Access rule of {} failed", method.fullMethodName(), e);
        refusal = Status.INTERNAL.withDescription("Authorization failed on the server");
      } finally {
        context.exit(previous);
      }
    }
    if (refusal != null) {
      log.debug("{} refused: {}", method.fullMethodName(), refusal);
      listener = new Listener<>() {};
      close(refusal, new Metadata());
      return;
    }
    if (cancelled) {
      listener = new Listener<>() {};
      return;
    }
    startHandler(handler);
  }

  private void closeWithThrowable(Throwable t) {
    Status status = Status.fromThrowable(t);
    if (t instanceof StatusException) {
      // The service chose this status: an answer, not a fault.
      log.debug("{} answered {}", method.fullMethodName(), status);
    } else {
      log.warn("{} failed", method.fullMethodName(), t);
    }
    Metadata trailers = t instanceof StatusException ? ((StatusException) t).trailers() : new Metadata();
    close(status, trailers);
  }

  // ServerCall: called by the handler chain.

  @Override
  public void request(int count) {
    stream.request(count);
  }

  @Override
  public void sendHeaders(Metadata headers) {
    if (headersSent) {
      throw new IllegalStateException("Headers already sent");
    }
    if (closeCalled) {
      throw new IllegalStateException("Call already closed");
    }
    headersSent = true;
    Metadata fromContext = context.takeResponseHeaders();
    if (fromContext != null) {
      headers.merge(fromContext);
    }
    stream.writeHeaders(headers, responseEncoding, !method.type().serverSendsOneMessage());
  }

  @Override
  public void sendMessage(R message) {
    if (closeCalled) {
      throw new IllegalStateException("sendMessage after close");
    }
    if (cancelled) {
      return;
    }
    if (!headersSent) {
      sendHeaders(new Metadata());
    }
    MessageEncoding encoding = messageCompression ? responseEncoding : null;
    int size = encoding == null ? method.responseCodec().serializedSize(message) : -1;
    int admitted = 0;
    // A large message the server has no room for is not made at all (protobuf knows its size first).
    if (size >= ServerStream.ADMIT_FROM - GrpcHeaders.MESSAGE_HEADER_LENGTH) {
      admitted = size + GrpcHeaders.MESSAGE_HEADER_LENGTH;
      if (!stream.admit(admitted)) {
        return;
      }
    }
    ByteBuf framed;
    try {
      framed = MessageFramer.frame(VirtualThreads.allocatorFor(stream.alloc()), method.responseCodec(), message,
          encoding, size);
    } catch (RuntimeException | Error e) {
      if (admitted != 0) {
        stream.withdraw(admitted);
      }
      throw e;
    }
    stream.writeMessage(framed, !method.type().serverSendsOneMessage());
  }

  @Override
  public void close(Status status, Metadata trailers) {
    if (closeCalled) {
      return;
    }
    closeCalled = true;
    closedWith = status;
    try {
      Metadata fromContext = context.takeResponseTrailers();
      if (fromContext != null) {
        trailers.merge(fromContext);
      }
      if (!headersSent) {
        // Headers the service set go out as headers, ahead of the trailers; with none, the response
        // is trailers-only.
        Metadata headers = context.takeResponseHeaders();
        if (headers != null && !headers.isEmpty()) {
          headersSent = true;
          stream.writeHeaders(headers, responseEncoding, false);
        }
      }
      stream.close(status, trailers);
    } catch (RuntimeException | Error e) {
      // Whatever went wrong, the stream must end, or the client waits for it forever.
      stream.cancel(Status.INTERNAL.withDescription("Server failed to close the call: " + e).withCause(e));
      throw e;
    }
  }

  /**
   * Ends a REST call whose request does not read (a path or query value of the wrong type, malformed JSON) before
   * its service ran, under the HTTP status of the error's code: as grpc-gateway refuses it, a server stream's
   * answer too, which is then the error itself rather than a stream ending in an error line.
   */
  private void refuse(Status status) {
    if (closeCalled) {
      return;
    }
    closeCalled = true;
    closedWith = status;
    stream.closeRefused(status, RestErrors.httpStatus(status.code()));
  }

  @Override
  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public boolean isReady() {
    return stream.isReady();
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    messageCompression = enabled;
  }

  @Override
  public void setCompression(String encoding) {
    if (headersSent) {
      throw new IllegalStateException("setCompression after the headers were sent");
    }
    MessageEncoding chosen = MessageEncoding.forName(encoding);
    if (chosen == null || MessageEncoding.accepts(request.acceptEncoding(), chosen)) {
      responseEncoding = chosen;
    } else {
      log.debug("Client does not accept {}; responses of {} stay uncompressed", encoding, method);
    }
  }

  @Override
  public MethodDescriptor<Q, R> method() {
    return method;
  }

  @Override
  public SocketAddress remoteAddress() {
    return stream.peer().remoteAddress();
  }

  @Override
  public String protocol() {
    return stream.protocol();
  }

  PeerInfo peer() {
    return stream.peer();
  }

  // ServerStreamListener: called on the event loop; each event moves to the call executor.

  @Override
  public void onMessage(ByteBuf payload, boolean compressed) {
    if (heldHandler != null && heldPayload == null) {
      heldPayload = payload;
      heldCompressed = compressed;
      return;
    }
    releaseHeld();
    if (method.type().clientSendsOneMessage()) {
      // The half-close (or a cancel) follows the one request: the handler gets both in one hand-off.
      callExecutor.executeLater(() -> deliverMessage(payload, compressed));
    } else {
      callExecutor.execute(() -> deliverMessage(payload, compressed));
    }
  }

  private void deliverMessage(ByteBuf payload, boolean compressed) {
    Q message;
    try {
      if (closeCalled || cancelled) {
        return;
      }
      message = MessageCodecs.decode(
          method.requestCodec(), payload, compressed, request.requestEncoding(), maxInboundMessageSize, "request");
    } catch (StatusException e) {
      if (request.rest() != null) {
        refuse(e.status());
      } else {
        close(e.status(), new Metadata());
      }
      return;
    } finally {
      payload.release();
    }
    context.setRequestCompressed(compressed);
    ServerContext previous = context.enter();
    try {
      listener.onMessage(message);
    } catch (RuntimeException | Error e) {
      closeWithThrowable(e);
    } finally {
      context.exit(previous);
    }
  }

  @Override
  public void onHalfClose() {
    ServerCallHandler<Q, R> handler = heldHandler;
    if (handler != null) {
      ByteBuf payload = heldPayload;
      boolean compressed = heldCompressed;
      heldHandler = null;
      heldPayload = null;
      callExecutor.execute(() -> startUnary(handler, payload, compressed));
      return;
    }
    callExecutor.execute(this::halfClose);
  }

  private void halfClose() {
    if (closeCalled || cancelled) {
      return;
    }
    ServerContext previous = context.enter();
    try {
      listener.onHalfClose();
    } catch (RuntimeException | Error e) {
      closeWithThrowable(e);
    } finally {
      context.exit(previous);
    }
  }

  /** Counts the call's end in {@code counters}, its method's (which counted its start). Before it starts. */
  void countIn(MethodCounters counters) {
    context.countIn(counters);
  }

  /** Runs {@code onEnd} once when the call ends (cancelled or completed): a concurrency limit's release. */
  void whenEnded(Runnable onEnd) {
    context.onEnd(onEnd);
  }

  @Override
  public void onCancel(Status status) {
    releaseHeld();
    cancelled = true;
    cancelDeadline();
    context.ended(endStatus(status));
    if (authenticating == 1 && AUTHENTICATING.compareAndSet(this, 1, 0)) {
      // The caller is gone: no need to wait for its verdict (which may never come) to release what it sent.
      callExecutor.resume(() -> listener = new Listener<>() {});
    }
    callExecutor.execute(() -> {
      ServerContext previous = context.enter();
      try {
        listener.onCancel();
      } finally {
        context.exit(previous);
      }
    });
  }

  /**
   * What a cancel means for the end listeners: a client that resets its call as its deadline passes (as
   * gRPC clients do, often just before the server's own timer) ended it by the deadline, not by choice.
   * Counted from 90% of the timeout on, the margin the server's premature-reset rule also allows.
   */
  private Status endStatus(Status cancel) {
    long timeoutNanos = request.timeoutNanos();
    if (cancel.code() == Status.Code.CANCELLED && timeoutNanos > 0 && context.remainingNanos() <= timeoutNanos / 10) {
      return Status.DEADLINE_EXCEEDED.withDescription("Deadline of " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
          + " ms exceeded: the client cancelled the call as it passed");
    }
    return cancel;
  }

  @Override
  public void onComplete() {
    releaseHeld();
    cancelDeadline();
    Status status = closedWith;
    context.ended(status != null ? status : Status.OK);
    Listener<Q> current = listener;
    if (current != null && !listensToOnComplete(current)) {
      // Nobody listens: waking a worker to run an empty method cost a thread hand-off per call.
      return;
    }
    callExecutor.execute(() -> listener.onComplete());
  }

  /** Whether {@code listener}, or a listener it forwards to, does anything in onComplete. */
  private static boolean listensToOnComplete(Listener<?> listener) {
    Listener<?> current = listener;
    while (true) {
      Class<?> declaredBy = ON_COMPLETE_DECLARED_BY.get(current.getClass());
      if (declaredBy == Listener.class) {
        return false;
      }
      if (declaredBy != ForwardingServerCallListener.class) {
        return true;
      }
      current = ((ForwardingServerCallListener<?>) current).delegate();
    }
  }

  @Override
  public void onReady() {
    releaseHeld();
    callExecutor.execute(() -> {
      if (!closeCalled && !cancelled) {
        listener.onReady();
      }
    });
  }

  private void cancelDeadline() {
    ScheduledFuture<?> timer = deadlineTimer;
    if (timer != null) {
      timer.cancel(false);
    }
  }
}
