package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.Metadata;
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
  /** Policies by full method name and by service name; "" for every method. */
  private final Map<String, RetryPolicy> policies;
  /** Null when retries are not throttled. */
  private final Throttle throttle;
  private final ScheduledExecutorService scheduler;
  private final LongSupplier nanoTime;
  /** Uniform in [0, 1): the jitter of each backoff. */
  private final DoubleSupplier jitter;
  private final long perCallBufferBytes;
  private final long perClientBufferBytes;
  private final AtomicLong bufferedBytes = new AtomicLong();

  RetryingCalls(ClientCallFactory delegate, Map<String, RetryPolicy> policies, Throttle throttle,
      ScheduledExecutorService scheduler, LongSupplier nanoTime, DoubleSupplier jitter, long perCallBufferBytes,
      long perClientBufferBytes) {
    this.delegate = delegate;
    this.policies = Map.copyOf(policies);
    this.throttle = throttle;
    this.scheduler = scheduler;
    this.nanoTime = nanoTime;
    this.jitter = jitter;
    this.perCallBufferBytes = perCallBufferBytes;
    this.perClientBufferBytes = perClientBufferBytes;
  }

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    RetryPolicy policy = policies.get(method.fullMethodName());
    if (policy == null) {
      policy = policies.get(method.serviceName());
    }
    if (policy == null) {
      policy = policies.get("");
    }
    return policy == null ? delegate.newCall(method, options) : new RetryingCall<>(method, options, policy);
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
