package io.triplerpc.registry.internal;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.spi.Connector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A call through a {@link ServiceDirectory}: picks an instance, and for an idempotent method whose
 * client sends one message, tries another instance when the first answers UNAVAILABLE before any
 * response (failover); every other call fails fast.
 *
 * <p>The caller's methods and the attempts' events meet under this object's lock; an attempt's
 * events arrive on the call's executor, one at a time.
 */
final class ClusterCall<Q, R> extends ClientCall<Q, R> {

  private final ServiceDirectory directory;
  private final Connector connector;
  private final MethodDescriptor<Q, R> method;
  private final CallOptions options;
  private final long initialWaitNanos;
  private final ScheduledExecutorService scheduler;
  private final boolean retryable;
  private final Endpoint[] tried;
  private final long startNanos = System.nanoTime();
  /** Time since the call was made beyond which an attempt's deadline is recomputed. */
  private static final long WAITED_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private Listener<R> listener;
  private Metadata headers;
  private ClientCall<Q, R> current;
  private int triedCount;
  private int requested;
  /** The one request, kept for another attempt. */
  private Q request;
  private boolean halfClosed;
  private boolean cancelled;
  /** Whether the first attempt was made, or the call ended without one. */
  private boolean launched;
  /** Messages sent before the first attempt started (while the first instances were awaited). */
  private List<Q> early;

  ClusterCall(
      ServiceDirectory directory, Connector connector, MethodDescriptor<Q, R> method, CallOptions options,
      int retries, long initialWaitNanos, ScheduledExecutorService scheduler) {
    this.directory = directory;
    this.scheduler = scheduler;
    this.connector = connector;
    this.method = method;
    this.options = options;
    this.initialWaitNanos = initialWaitNanos;
    this.retryable = retries > 0 && method.isIdempotent() && method.type().clientSendsOneMessage();
    this.tried = new Endpoint[retryable ? retries + 1 : 1];
  }

  @Override
  public void start(Listener<R> listener, Metadata headers) {
    boolean ready = directory.isReady();
    synchronized (this) {
      if (this.listener != null) {
        throw new IllegalStateException("Call already started");
      }
      this.listener = listener;
      this.headers = headers;
      if (!ready && !cancelled && deferUntilReady()) {
        return;
      }
    }
    launch();
  }

  /**
   * Before a service's first list of instances arrives, the call waits for it without holding the
   * caller's thread: what the caller sends meanwhile is kept, and the first attempt starts when the
   * list comes, or when the wait is over (at most the initial wait, never past the deadline). False
   * if the client is closing: the call is launched at once, and ends.
   */
  private boolean deferUntilReady() {
    long wait = initialWaitNanos;
    if (options.timeoutNanos() > 0) {
      wait = Math.min(wait, options.timeoutNanos());
    }
    try {
      scheduler.schedule(this::launch, wait, TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return false;
    }
    directory.whenReady(this::launch);
    return true;
  }

  /** Makes the first attempt, once; tells the listener if the call ends without one. */
  private void launch() {
    Status failure;
    synchronized (this) {
      if (launched) {
        return;
      }
      launched = true;
      failure = firstAttempt();
    }
    if (failure != null) {
      closeListener(failure);
    }
  }

  /** Tells the listener the call ended without an attempt, on the call's executor if it has one. */
  private void closeListener(Status status) {
    Executor executor = options.executor();
    if (executor != null) {
      // A synchronous caller drains this executor while it waits: it must hear the end there.
      executor.execute(() -> listener.onClose(status, new Metadata()));
    } else {
      listener.onClose(status, new Metadata());
    }
  }

  /** Starts the first attempt, or says why the call ends at once; called with the lock held. */
  private Status firstAttempt() {
    if (cancelled) {
      return Status.CANCELLED.withDescription("Call cancelled before it started");
    }
    if (options.timeoutNanos() > 0 && timeLeftNanos() <= 0) {
      return Status.DEADLINE_EXCEEDED.withDescription(
          "Deadline exceeded while waiting for the first instances of " + directory.describe());
    }
    Endpoint endpoint = directory.pick(tried, 0);
    if (endpoint == null) {
      return Status.UNAVAILABLE.withDescription(noInstanceReason());
    }
    attempt(endpoint);
    return null;
  }

  private long timeLeftNanos() {
    return options.timeoutNanos() - (System.nanoTime() - startNanos);
  }

  /**
   * Starts an attempt on {@code endpoint}; called with the lock held. Its deadline is what is left of
   * the call's: the first attempt of a call that waited for instances, and every retry, get less.
   */
  private void attempt(Endpoint endpoint) {
    tried[triedCount++] = endpoint;
    CallOptions attemptOptions = options;
    if (options.timeoutNanos() > 0) {
      long left = timeLeftNanos();
      if (options.timeoutNanos() - left > WAITED_NANOS) {
        attemptOptions = options.withTimeout(Math.max(1, left), TimeUnit.NANOSECONDS);
      }
    }
    AttemptListener attemptListener = new AttemptListener(endpoint);
    endpoint.callStarted();
    try {
      ClientCall<Q, R> call =
          endpoint.connection(connector).newCall(method, directory.toExportOf(endpoint, attemptOptions));
      current = call;
      call.start(attemptListener, triedCount == 1 ? headers : new Metadata().merge(headers));
    } catch (RuntimeException | Error e) {
      current = null;
      attemptListener.end();
      throw e;
    }
    if (requested > 0) {
      current.request(requested);
    }
    if (early != null) {
      List<Q> messages = early;
      early = null;
      for (Q message : messages) {
        current.sendMessage(message);
      }
    } else if (request != null) {
      current.sendMessage(request);
    }
    if (halfClosed) {
      current.halfClose();
    }
  }

  private String noInstanceReason() {
    String reason = directory.unavailableReason();
    if (reason != null) {
      return reason;
    }
    int instances = directory.size();
    if (instances > 0) {
      return "No instance of " + directory.describe() + " is in rotation: all " + instances
          + " are ejected as outliers (or removed)";
    }
    return directory.isReady()
        ? "No instance of " + directory.describe() + " is registered"
        : "No instance of " + directory.describe() + " is known yet (the registry has not answered)";
  }

  @Override
  public synchronized void request(int count) {
    requested += count;
    if (current != null) {
      current.request(count);
    }
  }

  @Override
  public synchronized void sendMessage(Q message) {
    if (retryable) {
      request = message;
    }
    if (current == null) {
      if (!launched) {
        // Waiting for the first instances: the first attempt sends it.
        if (early == null) {
          early = new ArrayList<>(1);
        }
        early.add(message);
      }
      return; // Otherwise the call ended before any attempt; the listener has been told.
    }
    current.sendMessage(message);
  }

  @Override
  public synchronized void halfClose() {
    halfClosed = true;
    if (current != null) {
      current.halfClose();
    }
  }

  @Override
  public void cancel(String message, Throwable cause) {
    boolean endNow;
    synchronized (this) {
      cancelled = true;
      if (current != null) {
        current.cancel(message, cause);
      }
      // Cancelled while waiting for the first instances: end it now rather than when they come.
      // (Cancelled before start: start ends it.)
      endNow = listener != null && !launched;
      if (endNow) {
        launched = true;
      }
    }
    if (endNow) {
      closeListener(Status.CANCELLED.withDescription(message != null ? message : "Call cancelled"));
    }
  }

  @Override
  public synchronized boolean isReady() {
    return current != null && current.isReady();
  }

  @Override
  public synchronized void setMessageCompression(boolean enabled) {
    if (current != null) {
      current.setMessageCompression(enabled);
    }
  }

  /** One attempt's events: held back until the attempt can no longer be retried. */
  private final class AttemptListener extends Listener<R> {

    private final Endpoint endpoint;
    /** Whether its time counts in the endpoint's latency estimate (peak EWMA, unary calls). */
    private final boolean timed;
    /** When it started, on the peak-EWMA clock, if timed. */
    private final long startedAtNanos;
    private Metadata heldHeaders;
    private boolean committed;
    private boolean ended;

    AttemptListener(Endpoint endpoint) {
      this.endpoint = endpoint;
      this.committed = !retryable;
      // Only a unary call's duration is its latency: a stream lasts as long as the conversation.
      PeakEwma peakEwma = directory.peakEwma;
      this.timed = peakEwma != null && method.type() == MethodType.UNARY;
      this.startedAtNanos = timed ? peakEwma.now() : 0;
    }

    @Override
    public void onHeaders(Metadata responseHeaders) {
      if (committed) {
        listener.onHeaders(responseHeaders);
      } else {
        heldHeaders = responseHeaders;
      }
    }

    @Override
    public void onMessage(R message) {
      commit();
      listener.onMessage(message);
    }

    private void commit() {
      if (!committed) {
        committed = true;
        if (heldHeaders != null) {
          listener.onHeaders(heldHeaders);
        }
      }
    }

    /** The attempt's call has ended for the balancers (exactly once). */
    synchronized void end() {
      if (!ended) {
        ended = true;
        endpoint.callEnded();
      }
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      end();
      if (timed) {
        directory.peakEwma.observe(endpoint, startedAtNanos, status.isOk());
      }
      endpoint.recordOutcome(status.code());
      if (status.code() == Status.Code.UNAVAILABLE) {
        endpoint.markFailed();
      } else {
        endpoint.markHealthy();
      }
      synchronized (ClusterCall.this) {
        if (!committed && !cancelled && status.code() == Status.Code.UNAVAILABLE
            && triedCount < tried.length && timeLeft()) {
          Endpoint next = directory.pick(tried, triedCount);
          if (next != null && !wasTried(next)) {
            // The failed attempt may still hold the request (sent before the half-close): release it.
            current.cancel("Retried on another instance", null);
            try {
              attempt(next);
              return;
            } catch (RuntimeException e) {
              // The retry could not start: the caller hears the first attempt's status.
            }
          }
        }
      }
      commit();
      listener.onClose(status, trailers);
    }

    @Override
    public void onReady() {
      listener.onReady();
    }
  }

  private boolean wasTried(Endpoint endpoint) {
    for (int i = 0; i < triedCount; i++) {
      if (tried[i] == endpoint) {
        return true;
      }
    }
    return false;
  }

  private boolean timeLeft() {
    return options.timeoutNanos() <= 0 || System.nanoTime() - startNanos < options.timeoutNanos();
  }
}
