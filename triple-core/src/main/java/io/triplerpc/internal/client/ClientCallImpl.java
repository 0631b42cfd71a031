package io.triplerpc.internal.client;

import io.netty.buffer.ByteBuf;
import io.triplerpc.CallCredentials;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.ObservedCall;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.internal.SerializingExecutor;
import io.triplerpc.internal.observe.CallObservers;
import io.triplerpc.internal.observe.ObservedCallImpl;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.FailedClientStream;
import io.triplerpc.internal.descriptor.WrappedMethod;
import io.triplerpc.internal.wire.ServiceExports;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageCodecs;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.internal.wire.MessageFramer;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * One attempt of a call on one server, as {@link RetriableCall} makes it: frames requests on the
 * caller's thread, hands them to a {@link ClientStream}, and turns stream events into listener calls
 * on the call's executor. It never goes again itself: a stream the server never processed ends as
 * {@link AttemptCall.Listener#onUnprocessed}, and the call decides.
 */
final class ClientCallImpl<Q, R> extends AttemptCall<Q, R> implements ClientStreamListener {

  private final ClientTransport transport;
  private final MethodDescriptor<Q, R> method;
  private final CallOptions options;
  private final Executor callExecutor;
  /** The caller's own executor when it waits for a single response, else null. */
  private final ThreadlessExecutor threadless;
  /** The per-call executor over the callback pool, unless the call brought an executor of its own. */
  private final SerializingExecutor serializing;
  private final int maxInboundMessageSize;
  private final MessageEncoding requestEncoding;

  /** Set once by {@link #start}, by the thread driving the call; read by any thread after. */
  private volatile ClientStream stream;
  private ClientCall.Listener<R> listener;
  /** When the call's deadline passes ({@link ClientTransport#nanoTime()}), if it has one. */
  private long deadlineNanos;
  /**
   * Why the application cancelled the call, once it did: messages that were still on their way are not
   * delivered, and the call ends with this, not with what the server said meanwhile.
   */
  private volatile Status cancelStatus;
  private boolean messageCompression = true;
  /** The single request of a unary or server-streaming call, held so it leaves with END_STREAM. */
  private volatile ByteBuf heldRequest;
  private static final AtomicReferenceFieldUpdater<ClientCallImpl, ByteBuf> HELD =
      AtomicReferenceFieldUpdater.newUpdater(ClientCallImpl.class, ByteBuf.class, "heldRequest");
  /** Whether the one request of a call that sends one was sent. */
  private boolean sentOne;
  /** Set on the event loop when the stream ended: a request held after it is released, not sent. */
  private volatile boolean streamEnded;
  private boolean halfClosed;

  // Touched only on the call executor.
  private MessageEncoding responseEncoding;
  /** Set when a response could not be read; reported instead of the status the server sends. */
  private Status localFailure;

  /** Written on the event loop and the calling thread; cancelled when the call closes. */
  private volatile ScheduledFuture<?> deadlineTimer;

  private final CallObservers observers;
  private final InetSocketAddress server;
  private final String target;
  /** This attempt as its observers see it; null without observers. Set by start. */
  private ObservedCallImpl observed;

  ClientCallImpl(
      ClientTransport transport,
      MethodDescriptor<Q, R> method,
      CallOptions options,
      Executor callExecutor,
      int maxInboundMessageSize) {
    this(transport, method, options, callExecutor, maxInboundMessageSize, null, null, null);
  }

  /**
   * @param callExecutor where the listener is called, one event at a time (a {@link ThreadlessExecutor}
   *     for a caller that waits, a {@link SerializingExecutor} over the callback pool, or the call's own)
   * @param observers who sees the attempt, or null
   * @param server the server address, for the observers
   * @param target {@code server} as {@code host:port}, for the observers
   */
  ClientCallImpl(
      ClientTransport transport,
      MethodDescriptor<Q, R> method,
      CallOptions options,
      Executor callExecutor,
      int maxInboundMessageSize,
      CallObservers observers,
      InetSocketAddress server,
      String target) {
    this.transport = transport;
    this.observers = observers;
    this.server = server;
    this.target = target;
    this.method = method;
    this.options = options;
    this.callExecutor = callExecutor;
    this.threadless = callExecutor instanceof ThreadlessExecutor && method.type().serverSendsOneMessage()
        ? (ThreadlessExecutor) callExecutor
        : null;
    this.serializing = callExecutor instanceof SerializingExecutor ? (SerializingExecutor) callExecutor : null;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.requestEncoding = encodingOf(options.compression());
    this.writeIn = WrappedMethod.requestSerializationFor(method.requestCodec(), options.preferredSerializations());
  }

  /**
   * The serialization plain Java requests are written in when the server prefers another than the method's
   * own ({@link CallOptions#withPreferredSerializations}); null for the method's own.
   */
  private final ObjectSerialization writeIn;

  private static MessageEncoding encodingOf(String compression) {
    try {
      return MessageEncoding.forName(compression);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("CallOptions compression: " + e.getMessage(), e);
    }
  }

  @Override
  public void start(ClientCall.Listener<R> listener, Metadata headers) {
    if (this.listener != null) {
      throw new IllegalStateException("Call already started");
    }
    this.listener = listener;
    if (observers != null) {
      observed = ObservedCallImpl.client(observers, ObservedCall.Kind.CLIENT_ATTEMPT, method.fullMethodName(),
          target, server, previousAttempts(headers));
    }
    nameExport(headers);
    long timeoutNanos = options.timeoutNanos();
    deadlineNanos = transport.nanoTime() + timeoutNanos;
    CallCredentials credentials = options.callCredentials();
    // Credentials add their headers to a copy: the call's next attempt starts from the caller's.
    stream = credentials == null
        ? transport.newStream(method, headers, timeoutNanos, requestEncoding)
        : streamWithCredentials(credentials, new Metadata().merge(headers), timeoutNanos);
    stream.start(this, !method.type().clientSendsOneMessage());
    if (timeoutNanos > 0) {
      // Armed after start: a cancel must never reach the stream before its listener does.
      deadlineTimer = transport.scheduler().schedule(this::deadlineExceeded, timeoutNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** The attempts before this one, as the retry policy counts them in the headers. */
  private static int previousAttempts(Metadata headers) {
    String previous = headers.get(RetriableCall.PREVIOUS_ATTEMPTS);
    if (previous == null) {
      return 0;
    }
    try {
      return Integer.parseInt(previous);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Names the service export called, when the options name one (a retry's headers may name another's,
   * so they are replaced); a wildcard names none.
   */
  private void nameExport(Metadata headers) {
    nameExport(headers, ServiceExports.VERSION_HEADER, options.serviceVersion());
    nameExport(headers, ServiceExports.GROUP_HEADER, options.serviceGroup());
    if (options.tag() != null) {
      headers.removeAll(ServiceExports.TAG_HEADER);
      headers.put(ServiceExports.TAG_HEADER, options.tag());
    }
  }

  private static void nameExport(Metadata headers, String header, String value) {
    if (value == null) {
      return;
    }
    headers.removeAll(header);
    if (!value.isEmpty() && !value.equals("*")) {
      headers.put(header, value);
    }
  }

  /**
   * The call's stream once {@code credentials} added their headers: at once when they have them at
   * hand, else a stream that keeps what the call sends until they do. A failed stream when they
   * cannot be had or would travel in cleartext.
   */
  private ClientStream streamWithCredentials(CallCredentials credentials, Metadata headers, long timeoutNanos) {
    if (!transport.isTls() && !credentials.allowsCleartext()) {
      return new FailedClientStream(Status.UNAUTHENTICATED.withDescription("Call credentials of "
          + method.fullMethodName() + " are not sent over a cleartext connection: use TLS, or allowingCleartext()"));
    }
    CompletableFuture<Metadata> extra;
    try {
      extra = credentials.requestHeaders(new CallCredentials.RequestInfo(method, transport.isTls())).toCompletableFuture();
    } catch (RuntimeException e) {
      extra = CompletableFuture.failedFuture(e);
    }
    if (extra.isDone()) {
      Status failure = credentialsFailure(extra);
      if (failure != null) {
        return new FailedClientStream(failure);
      }
      headers.merge(extra.join());
      return transport.newStream(method, headers, timeoutNanos, requestEncoding);
    }
    long deadline = transport.nanoTime() + timeoutNanos;
    DelayedClientStream delayed = new DelayedClientStream();
    CompletableFuture<Metadata> later = extra;
    later.whenComplete((added, t) -> {
      Status failure = credentialsFailure(later);
      if (failure != null) {
        delayed.fail(failure);
        return;
      }
      long left = timeoutNanos == 0 ? 0 : deadline - transport.nanoTime();
      if (timeoutNanos != 0 && left <= 0) {
        // The deadline timer fails the call; the server never sees it.
        return;
      }
      headers.merge(added);
      delayed.resolve(transport.newStream(method, headers, left, requestEncoding));
    });
    return delayed;
  }

  /** The status a call fails with when its credentials' stage failed, or null if it did not. */
  private static Status credentialsFailure(CompletableFuture<Metadata> extra) {
    Metadata added;
    try {
      added = extra.join();
    } catch (CompletionException | java.util.concurrent.CancellationException e) {
      Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
      if (cause instanceof StatusException) {
        return ((StatusException) cause).status();
      }
      return Status.UNAUTHENTICATED.withDescription("Could not get call credentials: " + cause).withCause(cause);
    }
    return added == null ? Status.UNAUTHENTICATED.withDescription("Call credentials gave no headers") : null;
  }

  private void deadlineExceeded() {
    stream.cancel(Status.DEADLINE_EXCEEDED.withDescription(
        "Deadline exceeded after " + TimeUnit.NANOSECONDS.toMillis(options.timeoutNanos()) + " ms"));
  }

  @Override
  public void request(int count) {
    checkStarted();
    stream.request(count);
  }

  @Override
  long send(Q message) {
    checkStarted();
    if (halfClosed) {
      throw new IllegalStateException("sendMessage after halfClose");
    }
    MessageEncoding encoding = messageCompression ? requestEncoding : null;
    Object written = writeIn == null ? message : WrappedMethod.inSerialization(message, writeIn);
    @SuppressWarnings("unchecked")
    ByteBuf framed = MessageFramer.frame(transport.alloc(), (MessageCodec<Object>) method.requestCodec(), written, encoding);
    int size = framed.readableBytes();
    if (observed != null) {
      observed.messageSent(size - GrpcHeaders.MESSAGE_HEADER_LENGTH);
    }
    if (method.type().clientSendsOneMessage()) {
      if (sentOne) {
        framed.release();
        throw new IllegalStateException(method.type() + " call " + method.fullMethodName() + " sends one request");
      }
      sentOne = true;
      heldRequest = framed;
      if (streamEnded) {
        // The stream ended before the request was held (a failed stream, a reset): nothing will send it.
        releaseHeld();
      }
    } else {
      stream.writeMessage(framed, false);
    }
    return size;
  }

  @Override
  public void halfClose() {
    checkStarted();
    if (halfClosed) {
      return;
    }
    halfClosed = true;
    ByteBuf last = HELD.getAndSet(this, null);
    if (last != null) {
      stream.writeMessage(last, true);
    } else {
      stream.halfClose();
    }
  }

  @Override
  public void cancel(String message, Throwable cause) {
    if (stream == null) {
      return;
    }
    releaseHeld();
    Status status = Status.CANCELLED;
    if (message != null) {
      status = status.withDescription(message);
    } else if (cause != null) {
      status = status.withDescription(cause.toString());
    }
    status = status.withCause(cause);
    cancelStatus = status;
    stream.cancel(status);
  }

  @Override
  public boolean isReady() {
    return stream != null && stream.isReady();
  }

  /**
   * The stream ended, processed or not: a request still held for the half-close will not be sent (the
   * call went on without it) and is released, and the deadline's timer has nothing left to end. Event loop.
   */
  private void onStreamEnded() {
    streamEnded = true;
    releaseHeld();
    ScheduledFuture<?> timer = deadlineTimer;
    if (timer != null) {
      timer.cancel(false);
    }
  }

  /** Releases the request held for the half-close, if the half-close did not take it. Any thread. */
  private void releaseHeld() {
    ByteBuf held = HELD.getAndSet(this, null);
    if (held != null) {
      held.release();
    }
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    messageCompression = enabled;
  }

  private void checkStarted() {
    if (stream == null) {
      throw new IllegalStateException("Call not started");
    }
  }

  // ClientStreamListener: called on the event loop; each event moves to the call executor.

  /**
   * Runs an event that only matters together with a later one: for a blocking unary call, the
   * caller is woken once, by the close, and runs the headers and message events then, in order.
   */
  private void executeBeforeClose(Runnable task) {
    if (threadless != null) {
      threadless.executeLater(task);
    } else {
      callExecutor.execute(task);
    }
  }

  @Override
  public void onHeaders(Metadata headers, MessageEncoding encoding) {
    executeBeforeClose(() -> {
      responseEncoding = encoding;
      if (localFailure == null) {
        listener.onHeaders(headers);
      }
    });
  }

  @Override
  public void onMessage(ByteBuf payload, boolean compressed) {
    if (observed != null) {
      observed.messageReceived(payload.readableBytes());
    }
    Runnable delivery = () -> deliverMessage(payload, compressed);
    if (threadless == null && serializing != null) {
      // Handed over with the rest of its read in onMessagesDelivered: one wake-up of a callback
      // thread per read, not per message (a stream of small messages arrives many to a read).
      serializing.executeLater(delivery);
    } else {
      executeBeforeClose(delivery);
    }
  }

  @Override
  public void onMessagesDelivered() {
    if (serializing != null) {
      serializing.flush();
    }
  }

  private void deliverMessage(ByteBuf payload, boolean compressed) {
    R message;
    try {
      if (localFailure != null || cancelStatus != null) {
        return;
      }
      message = MessageCodecs.decode(
          method.responseCodec(), payload, compressed, responseEncoding, maxInboundMessageSize, "response");
    } catch (StatusException e) {
      localFailure = e.status();
      stream.cancel(e.status());
      return;
    } finally {
      payload.release();
    }
    listener.onMessage(message);
  }

  /**
   * The server never processed the stream: the attempt ends, and its listener hears so (after what
   * came before, on the call's executor) to decide whether the call goes again.
   */
  @Override
  public void onUnprocessed(Status status) {
    onStreamEnded();
    callExecutor.execute(() -> {
      Status outcome = outcome(status, false);
      if (observed != null) {
        observed.end(outcome);
      }
      if (outcome == status && listener instanceof AttemptCall.Listener) {
        ((AttemptCall.Listener<R>) listener).onUnprocessed(status);
      } else {
        listener.onClose(outcome, new Metadata());
      }
    });
  }

  @Override
  public void onClose(Status status, Metadata trailers) {
    onStreamEnded();
    boolean deadlinePassed = options.timeoutNanos() != 0 && deadlineNanos - transport.nanoTime() <= 0;
    // On the call's executor, after the messages before the close: one of them may fail to decode.
    callExecutor.execute(() -> {
      Status outcome = outcome(status, deadlinePassed);
      if (observed != null) {
        observed.end(outcome);
      }
      listener.onClose(outcome, trailers);
    });
  }

  /**
   * How the call ended: a local failure (a response that did not decode), else the application's
   * cancel, else what the stream said.
   */
  private Status outcome(Status status, boolean deadlinePassed) {
    if (localFailure != null) {
      return localFailure;
    }
    Status cancelled = cancelStatus;
    if (cancelled != null) {
      return cancelled;
    }
    if (status.code() == Status.Code.CANCELLED && deadlinePassed) {
      // The server enforces the deadline too, and its reset can arrive before this side's timer runs:
      // the call ended because its deadline passed, whichever side noticed first.
      return Status.DEADLINE_EXCEEDED.withDescription("Deadline exceeded after "
          + TimeUnit.NANOSECONDS.toMillis(options.timeoutNanos()) + " ms; the server ended the call as it passed ("
          + status.description() + ")");
    }
    return status;
  }

  @Override
  public void onReady() {
    if (method.type().clientSendsOneMessage()) {
      // Nothing waits to send: skip the hop (it would wake a blocked unary caller for nothing).
      return;
    }
    callExecutor.execute(() -> {
      if (localFailure == null) {
        listener.onReady();
      }
    });
  }
}
