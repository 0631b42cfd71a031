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

/**
 * The client call every proxy and interceptor chain ends in: frames requests on the caller's
 * thread, hands them to a {@link ClientStream}, and turns stream events into listener calls on the
 * call's executor.
 */
final class ClientCallImpl<Q, R> extends ClientCall<Q, R> implements ClientStreamListener {

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

  // Set by the one thread driving the call (start, send, halfClose); replaced on the event loop by a
  // transparent retry, hence volatile.
  private volatile ClientStream stream;
  private Listener<R> listener;
  /** The request headers the call started with, for a transparent retry. */
  private Metadata startHeaders;
  /** When the call's deadline passes ({@link ClientTransport#nanoTime()}), if it has one. */
  private long deadlineNanos;
  /**
   * The single request of a unary or server-streaming call once sent, kept (a duplicate sharing its
   * bytes) until the server is known to have processed the call, so that a call the server never
   * processed can go again; null otherwise. Whoever takes it out releases it.
   */
  private volatile ByteBuf replayableRequest;
  private static final java.util.concurrent.atomic.AtomicReferenceFieldUpdater<ClientCallImpl, ByteBuf> REPLAYABLE =
      java.util.concurrent.atomic.AtomicReferenceFieldUpdater.newUpdater(
          ClientCallImpl.class, ByteBuf.class, "replayableRequest");
  /** Set when the stream closed for good: nothing will be replayed. */
  private volatile boolean closed;
  /** Whether the call already went again once. Event loop. */
  private boolean transparentlyRetried;
  private volatile boolean cancelled;
  /**
   * Why the application cancelled the call, once it did: messages that were still on their way are not
   * delivered, and the call ends with this, not with what the server said meanwhile.
   */
  private volatile Status cancelStatus;
  private final ReplayBudget replayBudget;
  /** Guards the replay buffer, and the stream while a streaming call may still go again. */
  private final Object replayLock = new Object();
  /**
   * The requests a client-streaming or bidi call sent (duplicates sharing their bytes), kept for a
   * transparent retry until the server answers; null once it did, once they passed the per-call or
   * per-address limit, or for calls that send one request. Guarded by {@link #replayLock}.
   */
  private java.util.ArrayDeque<ByteBuf> replayBuffer;
  private long replayBytes;
  /** Set once the streaming requests are no longer kept: writes need not take the lock. */
  private volatile boolean replayCommitted;
  /** Messages the listener asked for, all of them: a retried stream is asked for them again. */
  private final java.util.concurrent.atomic.AtomicInteger requested = new java.util.concurrent.atomic.AtomicInteger();
  private boolean messageCompression = true;
  /** The single request of a unary or server-streaming call, held so it leaves with END_STREAM. */
  private ByteBuf heldRequest;
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
      Executor callbackExecutor,
      int maxInboundMessageSize,
      ReplayBudget replayBudget) {
    this(transport, method, options, callbackExecutor, maxInboundMessageSize, replayBudget, null, null, null);
  }

  /**
   * @param observers who sees the attempt, or null
   * @param server the server address, for the observers
   * @param target {@code server} as {@code host:port}, for the observers
   */
  ClientCallImpl(
      ClientTransport transport,
      MethodDescriptor<Q, R> method,
      CallOptions options,
      Executor callbackExecutor,
      int maxInboundMessageSize,
      ReplayBudget replayBudget,
      CallObservers observers,
      InetSocketAddress server,
      String target) {
    this.transport = transport;
    this.observers = observers;
    this.server = server;
    this.target = target;
    this.replayBudget = replayBudget;
    if (method.type().clientSendsOneMessage()) {
      replayCommitted = true;
    } else {
      replayBuffer = new java.util.ArrayDeque<>();
    }
    this.method = method;
    this.options = options;
    this.callExecutor =
        options.executor() != null ? options.executor() : new SerializingExecutor(callbackExecutor);
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
  public void start(Listener<R> listener, Metadata headers) {
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
    // Credentials add their headers to what they are given: a retry starts from a copy.
    startHeaders = credentials == null ? headers : new Metadata().merge(headers);
    stream = credentials == null
        ? transport.newStream(method, headers, timeoutNanos, requestEncoding)
        : streamWithCredentials(credentials, headers, timeoutNanos);
    stream.start(this, !method.type().clientSendsOneMessage());
    if (timeoutNanos > 0) {
      // Armed after start: a cancel must never reach the stream before its listener does.
      deadlineTimer = transport.scheduler().schedule(this::deadlineExceeded, timeoutNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** The attempts before this one, as the retry policy counts them in the headers. */
  private static int previousAttempts(Metadata headers) {
    String previous = headers.get(RetryingCalls.PREVIOUS_ATTEMPTS);
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
    // Counted before the stream is read, and a retry switches the stream before it reads the count:
    // one of the two sees the other, and no demand is lost.
    int before;
    do {
      before = requested.get();
    } while (!requested.compareAndSet(before, (int) Math.min(Integer.MAX_VALUE, (long) before + count)));
    stream.request(count);
  }

  @Override
  public void sendMessage(Q message) {
    checkStarted();
    if (halfClosed) {
      throw new IllegalStateException("sendMessage after halfClose");
    }
    MessageEncoding encoding = messageCompression ? requestEncoding : null;
    Object written = writeIn == null ? message : WrappedMethod.inSerialization(message, writeIn);
    @SuppressWarnings("unchecked")
    ByteBuf framed = MessageFramer.frame(transport.alloc(), (MessageCodec<Object>) method.requestCodec(), written, encoding);
    if (observed != null) {
      observed.messageSent(framed.readableBytes() - GrpcHeaders.MESSAGE_HEADER_LENGTH);
    }
    if (method.type().clientSendsOneMessage()) {
      if (heldRequest != null) {
        framed.release();
        throw new IllegalStateException(method.type() + " call " + method.fullMethodName() + " sends one request");
      }
      heldRequest = framed;
    } else if (replayCommitted) {
      stream.writeMessage(framed, false);
    } else {
      synchronized (replayLock) {
        keepForReplay(framed);
        stream.writeMessage(framed, false);
      }
    }
  }

  /** Keeps a duplicate of a streaming request, or, past the limits, stops keeping any. Under replayLock. */
  private void keepForReplay(ByteBuf framed) {
    if (replayBuffer == null) {
      return;
    }
    int size = framed.readableBytes();
    if (replayBytes + size > ReplayBudget.PER_CALL_LIMIT || !replayBudget.take(size)) {
      commitReplay();
      return;
    }
    replayBytes += size;
    replayBuffer.add(framed.retainedDuplicate());
  }

  /** No more replay: the kept requests go. */
  private void commitReplay() {
    if (replayCommitted) {
      return;
    }
    synchronized (replayLock) {
      replayCommitted = true;
      if (replayBuffer != null) {
        for (ByteBuf kept : replayBuffer) {
          kept.release();
        }
        replayBuffer = null;
        replayBudget.giveBack(replayBytes);
        replayBytes = 0;
      }
    }
  }

  @Override
  public void halfClose() {
    checkStarted();
    if (halfClosed) {
      return;
    }
    halfClosed = true;
    if (heldRequest != null) {
      ByteBuf last = heldRequest;
      heldRequest = null;
      // Kept for a transparent retry, until the server answers; the stream releases what it is given.
      replayableRequest = last;
      stream.writeMessage(last.retainedDuplicate(), true);
      if (closed) {
        // The call ended meanwhile (a stream that failed at once): the close may have looked too early.
        releaseReplayable();
      }
    } else if (replayCommitted) {
      stream.halfClose();
    } else {
      synchronized (replayLock) {
        stream.halfClose();
      }
    }
  }

  @Override
  public void cancel(String message, Throwable cause) {
    if (stream == null) {
      return;
    }
    cancelled = true;
    commitReplay();
    if (heldRequest != null) {
      heldRequest.release();
      heldRequest = null;
    }
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
    // The server processed the call: it will not go again.
    releaseReplayable();
    commitReplay();
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

  private void releaseReplayable() {
    @SuppressWarnings("unchecked")
    ByteBuf request = REPLAYABLE.getAndSet(this, null);
    if (request != null) {
      request.release();
    }
  }

  /**
   * The server never processed the call (it never left this client, the server refused it, or its
   * GOAWAY named an earlier stream): the call goes again once, on a new stream (grpc-java's
   * transparent retry), if it was not cancelled and time is left, with what it sent: the one request
   * of a unary or server-streaming call, or every request a streaming call kept (unless they passed
   * the limits, see {@link ReplayBudget}).
   */
  @Override
  public void onUnprocessed(Status status) {
    if (!method.type().clientSendsOneMessage()) {
      synchronized (replayLock) {
        if (replayBuffer != null && retryAllowed() && replayStreaming()) {
          return;
        }
      }
      onClose(status, new Metadata());
      return;
    }
    ByteBuf request = replayableRequest;
    ClientStream next = request != null && retryAllowed() ? retryStream() : null;
    if (next == null) {
      onClose(status, new Metadata());
      return;
    }
    transparentlyRetried = true;
    stream = next;
    // Nothing was delivered (the server never answered): all that was asked for is still wanted.
    next.request(requested.get());
    next.start(this, false);
    next.writeMessage(request.retainedDuplicate(), true);
    if (cancelled) {
      // cancel() ran on the old stream meanwhile: this one goes the same way.
      next.cancel(Status.CANCELLED.withDescription("Call cancelled"));
    }
  }

  /** Whether the call may go again: not yet retried, not cancelled, time left. */
  private boolean retryAllowed() {
    return !transparentlyRetried && !cancelled
        && (options.timeoutNanos() == 0 || deadlineNanos - transport.nanoTime() > 0);
  }

  /** A new stream for the call, with the deadline that is left; null if none can be had. */
  private ClientStream retryStream() {
    long left = options.timeoutNanos() == 0 ? 0 : deadlineNanos - transport.nanoTime();
    try {
      CallCredentials credentials = options.callCredentials();
      Metadata headers = credentials == null ? startHeaders : new Metadata().merge(startHeaders);
      return credentials == null
          ? transport.newStream(method, headers, left, requestEncoding)
          : streamWithCredentials(credentials, headers, left);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * Sends a client-streaming or bidi call again: its headers at once, every request it sent, and its
   * half-close if it came. Under replayLock, so that the caller's next request waits and follows them
   * on the new stream.
   */
  private boolean replayStreaming() {
    ClientStream next = retryStream();
    if (next == null) {
      return false;
    }
    transparentlyRetried = true;
    stream = next;
    next.request(requested.get());
    next.start(this, true);
    for (ByteBuf kept : replayBuffer) {
      next.writeMessage(kept.retainedDuplicate(), false);
    }
    if (halfClosed) {
      next.halfClose();
    }
    if (cancelled) {
      next.cancel(Status.CANCELLED.withDescription("Call cancelled"));
    }
    return true;
  }

  @Override
  public void onClose(Status status, Metadata trailers) {
    closed = true;
    releaseReplayable();
    commitReplay();
    ScheduledFuture<?> timer = deadlineTimer;
    if (timer != null) {
      timer.cancel(false);
    }
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
