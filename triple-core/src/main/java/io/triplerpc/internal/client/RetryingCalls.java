package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.Metadata;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.serialization.MessageCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Calls with a {@link RetryPolicy} go again as gRPC's retry design (A6) says: each attempt a new call of
 * the delegate, the requests sent so far replayed, after a jittered exponential backoff (or the server's
 * pushback), while the call is not committed, attempts and the deadline are left, and the throttle allows.
 * Methods without a policy go straight to the delegate.
 */
final class RetryingCalls implements ClientCallFactory {

  static final String PREVIOUS_ATTEMPTS = "grpc-previous-rpc-attempts";
  static final String PUSHBACK = "grpc-retry-pushback-ms";

  private final ClientCallFactory delegate;
  /** Method configs by full method name and by service name; "" for every method. */
  private final Map<String, MethodConfig> configs;
  /** Null when retries are not throttled. */
  private final Throttle throttle;
  private final ScheduledExecutorService scheduler;
  private final LongSupplier nanoTime;
  /** Uniform in [0, 1): the jitter of each backoff. */
  private final DoubleSupplier jitter;
  private final long perCallBufferBytes;
  private final long perClientBufferBytes;
  private final AtomicLong bufferedBytes = new AtomicLong();

  RetryingCalls(ClientCallFactory delegate, Map<String, MethodConfig> configs, Throttle throttle,
      ScheduledExecutorService scheduler, LongSupplier nanoTime, DoubleSupplier jitter, long perCallBufferBytes,
      long perClientBufferBytes) {
    this.delegate = delegate;
    this.configs = Map.copyOf(configs);
    this.throttle = throttle;
    this.scheduler = scheduler;
    this.nanoTime = nanoTime;
    this.jitter = jitter;
    this.perCallBufferBytes = perCallBufferBytes;
    this.perClientBufferBytes = perClientBufferBytes;
  }

  /**
   * A call as the policy of {@code method}'s most specific config says (its own, its service's, or every
   * method's, and nothing from the others), or straight to the delegate without one.
   */
  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    MethodConfig config = MethodConfig.find(configs, method);
    if (config != null && config.hedgingPolicy() != null) {
      return new HedgingCall<>(method, options, config.hedgingPolicy());
    }
    if (config != null && config.retryPolicy() != null) {
      return new RetryingCall<>(method, options, config.retryPolicy());
    }
    return delegate.newCall(method, options);
  }

  /**
   * gRPC's retry throttling: tokens start at {@code maxTokens}; a retryable failure takes one, a success
   * gives back {@code tokenRatio}; retries go only while more than half are left. Thread-safe.
   */
  static final class Throttle {
    private final int maxMilliTokens;
    private final int ratioMilliTokens;
    private final AtomicInteger milliTokens;

    Throttle(int maxTokens, double tokenRatio) {
      this.maxMilliTokens = maxTokens * 1000;
      this.ratioMilliTokens = (int) Math.round(tokenRatio * 1000);
      this.milliTokens = new AtomicInteger(maxMilliTokens);
    }

    /** A retryable failure; whether a retry may follow. */
    boolean failedMayRetry() {
      int now = milliTokens.updateAndGet(t -> Math.max(0, t - 1000));
      return now > maxMilliTokens / 2;
    }

    void succeeded() {
      milliTokens.updateAndGet(t -> Math.min(maxMilliTokens, t + ratioMilliTokens));
    }
  }

  /** One call, over as many attempts as its policy and circumstances allow. */
  private final class RetryingCall<Q, R> extends ClientCall<Q, R> {
    private final MethodDescriptor<Q, R> method;
    private final CallOptions options;
    private final RetryPolicy policy;
    private final long startNanos;
    /** Guards everything below; listener callbacks run outside it. */
    private final Object lock = new Object();
    private Listener<R> listener;
    private Metadata headers;
    private List<Q> sent = new ArrayList<>();
    private long sentBytes;
    private int requested;
    private boolean halfClosed;
    private boolean committed;
    private boolean cancelled;
    private boolean closed;
    private int attempts;
    private double backoffNanos;
    /** The attempt running, or null while waiting to go again. */
    private ClientCall<Q, R> current;
    private ScheduledFuture<?> pending;
    /** How the last failed attempt ended, while waiting to go again. */
    private Status lastStatus;
    private Metadata lastTrailers;

    RetryingCall(MethodDescriptor<Q, R> method, CallOptions options, RetryPolicy policy) {
      this.method = method;
      this.options = options;
      this.policy = policy;
      this.startNanos = nanoTime.getAsLong();
      this.backoffNanos = policy.initialBackoff().toNanos();
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      synchronized (lock) {
        this.listener = listener;
        this.headers = new Metadata().merge(headers);
      }
      attempt();
    }

    /**
     * Starts the next attempt and replays what was sent so far, under the lock, so that a message sent
     * meanwhile follows them in order (the delegate's calls hand their events to executors, never back
     * into this call on the same thread).
     */
    private void attempt() {
      synchronized (lock) {
        pending = null;
        if (cancelled || closed) {
          return;
        }
        int previous = attempts++;
        CallOptions attemptOptions = options;
        if (options.timeoutNanos() > 0) {
          long left = options.timeoutNanos() - (nanoTime.getAsLong() - startNanos);
          attemptOptions = options.withTimeout(Math.max(1, left), TimeUnit.NANOSECONDS);
        }
        ClientCall<Q, R> call = delegate.newCall(method, attemptOptions);
        current = call;
        Metadata attemptHeaders = new Metadata().merge(headers);
        if (previous > 0) {
          attemptHeaders.put(PREVIOUS_ATTEMPTS, Integer.toString(previous));
        }
        call.start(new AttemptListener(call), attemptHeaders);
        if (requested > 0) {
          call.request(requested);
        }
        for (Q message : committed ? List.<Q>of() : sent) {
          call.sendMessage(message);
        }
        if (halfClosed) {
          call.halfClose();
        }
      }
    }

    @Override
    public void request(int count) {
      synchronized (lock) {
        requested += count;
        if (current != null) {
          current.request(count);
        }
      }
    }

    @Override
    public void sendMessage(Q message) {
      Status failure = null;
      Metadata trailers = null;
      synchronized (lock) {
        if (closed) {
          return;
        }
        if (!committed) {
          long size = sizeOf(message);
          if (sentBytes + size > perCallBufferBytes || bufferedBytes.addAndGet(size) > perClientBufferBytes) {
            bufferedBytes.addAndGet(-size);
            commit();
          } else {
            sent.add(message);
            sentBytes += size;
          }
        }
        if (current != null) {
          current.sendMessage(message);
        } else if (committed) {
          // Waiting to go again, but no longer able to replay everything: the call ends as the last
          // attempt did.
          pending.cancel(false);
          pending = null;
          closed = true;
          failure = lastStatus;
          trailers = lastTrailers;
        }
      }
      if (failure != null) {
        listener.onClose(failure, trailers);
      }
    }

    @Override
    public void halfClose() {
      synchronized (lock) {
        halfClosed = true;
        if (current != null) {
          current.halfClose();
        }
      }
    }

    @Override
    public void cancel(String message, Throwable cause) {
      ClientCall<Q, R> call;
      boolean waiting;
      synchronized (lock) {
        if (cancelled || closed) {
          return;
        }
        cancelled = true;
        waiting = pending != null;
        if (waiting) {
          pending.cancel(false);
          pending = null;
          closed = true;
          commit();
        }
        call = current;
      }
      if (waiting) {
        listener.onClose(Status.CANCELLED.withDescription(message).withCause(cause), new Metadata());
      } else {
        call.cancel(message, cause);
      }
    }

    @Override
    public boolean isReady() {
      ClientCall<Q, R> call;
      synchronized (lock) {
        call = current;
      }
      return call != null && call.isReady();
    }

    /** No more attempts: what was kept for them goes. Under the lock. */
    private void commit() {
      if (!committed) {
        committed = true;
        bufferedBytes.addAndGet(-sentBytes);
        sentBytes = 0;
        sent = null;
      }
    }

    private long sizeOf(Q message) {
      MessageCodec<Q> codec = method.requestCodec();
      int known = codec.serializedSize(message);
      if (known >= 0) {
        return known;
      }
      Counting counting = new Counting();
      try {
        codec.write(message, counting);
      } catch (IOException | RuntimeException e) {
        return perCallBufferBytes + 1;
      }
      return counting.count;
    }

    /**
     * The delay before the next attempt, or -1 for none: the server's pushback if it sent one (a
     * negative or malformed one means no retry), else a random part of the current backoff.
     */
    private long delayNanos(Metadata trailers) {
      String pushback = trailers.get(PUSHBACK);
      if (pushback != null) {
        try {
          long millis = Long.parseLong(pushback.trim());
          if (millis < 0) {
            return -1;
          }
          backoffNanos = policy.initialBackoff().toNanos();
          return TimeUnit.MILLISECONDS.toNanos(millis);
        } catch (NumberFormatException e) {
          return -1;
        }
      }
      long delay = (long) (jitter.getAsDouble() * backoffNanos);
      backoffNanos = Math.min(backoffNanos * policy.backoffMultiplier(), policy.maxBackoff().toNanos());
      return delay;
    }

    /** The events of one attempt: only the current one's reach the listener. */
    private final class AttemptListener extends Listener<R> {
      private final ClientCall<Q, R> attempt;

      AttemptListener(ClientCall<Q, R> attempt) {
        this.attempt = attempt;
      }

      private boolean isCurrent() {
        synchronized (lock) {
          return attempt == current && !closed;
        }
      }

      @Override
      public void onHeaders(Metadata responseHeaders) {
        synchronized (lock) {
          if (attempt != current) {
            return;
          }
          commit();
        }
        listener.onHeaders(responseHeaders);
      }

      @Override
      public void onMessage(R message) {
        synchronized (lock) {
          if (attempt != current) {
            return;
          }
          commit();
        }
        listener.onMessage(message);
      }

      @Override
      public void onReady() {
        if (isCurrent()) {
          listener.onReady();
        }
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        synchronized (lock) {
          if (attempt != current || closed) {
            return;
          }
          if (status.isOk()) {
            if (throttle != null) {
              throttle.succeeded();
            }
          } else if (mayRetry(status, trailers)) {
            return;
          }
          closed = true;
          commit();
        }
        listener.onClose(status, trailers);
      }

      /** Schedules the next attempt if this failure allows one. Under the lock. */
      private boolean mayRetry(Status status, Metadata trailers) {
        if (committed || cancelled || !policy.retryableStatusCodes().contains(status.code())) {
          return false;
        }
        boolean throttleAllows = throttle == null || throttle.failedMayRetry();
        if (attempts >= policy.maxAttempts() || !throttleAllows) {
          return false;
        }
        long delay = delayNanos(trailers);
        if (delay < 0) {
          return false;
        }
        if (options.timeoutNanos() > 0
            && options.timeoutNanos() - (nanoTime.getAsLong() - startNanos) <= delay) {
          return false;
        }
        current = null;
        lastStatus = status;
        lastTrailers = trailers;
        pending = scheduler.schedule(RetryingCall.this::attempt, delay, TimeUnit.NANOSECONDS);
        return true;
      }
    }
  }

  /**
   * One call sent as up to {@code maxAttempts} attempts in parallel, {@code hedgingDelay} apart: the first
   * to answer wins and the others are cancelled (gRPC's hedging, A6).
   */
  private final class HedgingCall<Q, R> extends ClientCall<Q, R> {
    private final MethodDescriptor<Q, R> method;
    private final CallOptions options;
    private final HedgingPolicy policy;
    private final long startNanos;
    private final Object lock = new Object();
    private Listener<R> listener;
    private Metadata headers;
    private final List<Q> sent = new ArrayList<>();
    private final List<ClientCall<Q, R>> live = new ArrayList<>();
    private int requested;
    private boolean halfClosed;
    private boolean closed;
    private boolean noMoreHedges;
    private int attempts;
    /** The attempt that answered first, after which only its events count. */
    private ClientCall<Q, R> winner;
    private ScheduledFuture<?> nextHedge;

    HedgingCall(MethodDescriptor<Q, R> method, CallOptions options, HedgingPolicy policy) {
      this.method = method;
      this.options = options;
      this.policy = policy;
      this.startNanos = nanoTime.getAsLong();
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      synchronized (lock) {
        this.listener = listener;
        this.headers = new Metadata().merge(headers);
        hedge();
      }
    }

    /** Starts one more attempt, replaying what was sent, and arms the next. Under the lock. */
    private void hedge() {
      nextHedge = null;
      if (closed || winner != null || attempts >= policy.maxAttempts() || noMoreHedges) {
        return;
      }
      int previous = attempts++;
      CallOptions attemptOptions = options;
      if (options.timeoutNanos() > 0) {
        long left = options.timeoutNanos() - (nanoTime.getAsLong() - startNanos);
        attemptOptions = options.withTimeout(Math.max(1, left), TimeUnit.NANOSECONDS);
      }
      ClientCall<Q, R> call = delegate.newCall(method, attemptOptions);
      live.add(call);
      Metadata attemptHeaders = new Metadata().merge(headers);
      if (previous > 0) {
        attemptHeaders.put(PREVIOUS_ATTEMPTS, Integer.toString(previous));
      }
      call.start(new HedgeListener(call), attemptHeaders);
      if (requested > 0) {
        call.request(requested);
      }
      for (Q message : sent) {
        call.sendMessage(message);
      }
      if (halfClosed) {
        call.halfClose();
      }
      if (attempts < policy.maxAttempts()) {
        schedule(policy.hedgingDelay().toNanos());
      }
    }

    private void schedule(long delayNanos) {
      if (nextHedge != null) {
        nextHedge.cancel(false);
      }
      if (options.timeoutNanos() > 0 && options.timeoutNanos() - (nanoTime.getAsLong() - startNanos) <= delayNanos) {
        return;
      }
      nextHedge = scheduler.schedule(() -> {
        synchronized (lock) {
          hedge();
        }
      }, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void request(int count) {
      synchronized (lock) {
        requested += count;
        live.forEach(call -> call.request(count));
      }
    }

    @Override
    public void sendMessage(Q message) {
      synchronized (lock) {
        if (winner == null) {
          sent.add(message);
        }
        live.forEach(call -> call.sendMessage(message));
      }
    }

    @Override
    public void halfClose() {
      synchronized (lock) {
        halfClosed = true;
        live.forEach(ClientCall::halfClose);
      }
    }

    @Override
    public void cancel(String message, Throwable cause) {
      List<ClientCall<Q, R>> calls;
      synchronized (lock) {
        if (closed) {
          return;
        }
        noMoreHedges = true;
        if (nextHedge != null) {
          nextHedge.cancel(false);
          nextHedge = null;
        }
        calls = List.copyOf(live);
      }
      calls.forEach(call -> call.cancel(message, cause));
    }

    @Override
    public boolean isReady() {
      synchronized (lock) {
        for (ClientCall<Q, R> call : live) {
          if (!call.isReady()) {
            return false;
          }
        }
        return !live.isEmpty();
      }
    }

    /** {@code attempt} answered first: the others go. Under the lock; returns the losers to cancel. */
    private List<ClientCall<Q, R>> win(ClientCall<Q, R> attempt) {
      winner = attempt;
      sent.clear();
      if (nextHedge != null) {
        nextHedge.cancel(false);
        nextHedge = null;
      }
      List<ClientCall<Q, R>> losers = new ArrayList<>(live);
      losers.remove(attempt);
      live.retainAll(List.of(attempt));
      return losers;
    }

    private void cancelLosers(List<ClientCall<Q, R>> losers) {
      losers.forEach(loser -> loser.cancel("Another hedged attempt answered first", null));
    }

    private final class HedgeListener extends Listener<R> {
      private final ClientCall<Q, R> attempt;

      HedgeListener(ClientCall<Q, R> attempt) {
        this.attempt = attempt;
      }

      /** Whether this attempt's event reaches the listener, making it the winner if none is yet. */
      private List<ClientCall<Q, R>> claim() {
        synchronized (lock) {
          if (closed || (winner != null && winner != attempt) || !live.contains(attempt)) {
            return null;
          }
          return winner == null ? win(attempt) : List.of();
        }
      }

      @Override
      public void onHeaders(Metadata responseHeaders) {
        List<ClientCall<Q, R>> losers = claim();
        if (losers != null) {
          cancelLosers(losers);
          listener.onHeaders(responseHeaders);
        }
      }

      @Override
      public void onMessage(R message) {
        List<ClientCall<Q, R>> losers = claim();
        if (losers != null) {
          cancelLosers(losers);
          listener.onMessage(message);
        }
      }

      @Override
      public void onReady() {
        synchronized (lock) {
          if (closed || (winner != null && winner != attempt)) {
            return;
          }
        }
        listener.onReady();
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        List<ClientCall<Q, R>> losers = List.of();
        synchronized (lock) {
          if (closed || (winner != null && winner != attempt) || !live.remove(attempt)) {
            return;
          }
          if (winner == null && !status.isOk() && policy.nonFatalStatusCodes().contains(status.code())) {
            if (throttle != null && !throttle.failedMayRetry()) {
              noMoreHedges = true;
            }
            String pushback = trailers.get(PUSHBACK);
            if (pushback != null) {
              long millis = parsePushback(pushback);
              if (millis < 0) {
                noMoreHedges = true;
              } else {
                schedule(TimeUnit.MILLISECONDS.toNanos(millis));
              }
            } else if (!noMoreHedges && attempts < policy.maxAttempts()) {
              // A non-fatal failure sends the next attempt at once, ahead of its delay.
              hedge();
            }
            if (noMoreHedges && nextHedge != null) {
              nextHedge.cancel(false);
              nextHedge = null;
            }
            if (!live.isEmpty() || nextHedge != null) {
              return;
            }
          } else if (winner == null) {
            losers = win(attempt);
          }
          if (status.isOk() && throttle != null) {
            throttle.succeeded();
          }
          closed = true;
          if (nextHedge != null) {
            nextHedge.cancel(false);
            nextHedge = null;
          }
        }
        cancelLosers(losers);
        listener.onClose(status, trailers);
      }
    }
  }

  /** A pushback's milliseconds; negative (no retry) when malformed. */
  private static long parsePushback(String pushback) {
    try {
      return Long.parseLong(pushback.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Counts what a codec writes, for a message whose size it cannot tell. */
  private static final class Counting extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
