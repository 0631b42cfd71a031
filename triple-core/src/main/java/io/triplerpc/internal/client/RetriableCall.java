package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.spi.Picker;
import io.triplerpc.spi.Picker.Pick;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One call over as many attempts as its circumstances allow: the one loop of every kind of retry in a
 * client. It owns what every attempt shares (the requests kept for replay and their byte limits, the
 * commit point, the deadline, the throttle, the count of attempts that {@code grpc-previous-rpc-attempts}
 * tells the server) and, after each attempt that failed, asks one policy whether another follows:
 *
 * <ul>
 *   <li>transparent: once per call, at once, when the server never processed the attempt (gRPC's A6
 *       allows it beside any policy, and it does not count as an attempt);
 *   <li>a {@link RetryPolicy}: after a jittered exponential backoff or the server's pushback, up to its
 *       {@code maxAttempts};
 *   <li>a {@link HedgingPolicy}: attempts in parallel, a delay apart, the first to answer wins;
 *   <li>without either: failover to another server after UNAVAILABLE, as the {@link Picker} allows.
 * </ul>
 *
 * <p>The {@link Picker} chooses each attempt's server; the policy alone decides how many attempts there
 * are, so a policy of five attempts over any number of servers makes at most five (six with the
 * transparent retry).
 *
 * <p>Threads: {@link #start}, {@link #sendMessage} and {@link #halfClose} come from the caller, one at a
 * time; {@link #request}, {@link #cancel} and {@link #isReady} from any thread. Every attempt's events
 * arrive on the one call executor the attempts share, one at a time; scheduled attempts start on the
 * scheduler. {@link #lock} guards the fields below it; the listener is called outside it.
 */
final class RetriableCall<Q, R> extends ClientCall<Q, R> {

  static final String PREVIOUS_ATTEMPTS = "grpc-previous-rpc-attempts";
  static final String PUSHBACK = "grpc-retry-pushback-ms";
  /** Time since the call was made beyond which an attempt's deadline is what is left of the call's. */
  private static final long WAITED_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final RetriableCalls calls;
  private final MethodDescriptor<Q, R> method;
  private final CallOptions options;
  private final Picker picker;
  /** Where every attempt's events and the call's own last event run, in order. */
  private final Executor callExecutor;
  private final RetryPolicy retryPolicy;
  private final HedgingPolicy hedgingPolicy;
  /** Attempts the call may make, transparent retries aside. */
  private final int maxAttempts;
  /** Whether a failed attempt goes to another server without a policy (failover). */
  private final boolean failsOver;
  /**
   * Whether the requests kept count against the retry buffer's limits: a streaming call's, or any
   * call's under a policy. (The one request of a call without a policy is held by its caller anyway,
   * and counting it would put a shared counter on every unary call.)
   */
  private final boolean budgeted;
  private final long startNanos;

  /**
   * Guards the fields below. A lock, not this object's monitor: attempts start, serialize and write under
   * it, which may park (a buffer allocator's lock, say), and on Java 21 to 23 a virtual thread that parks
   * holding a monitor pins its carrier thread.
   */
  private final ReentrantLock lock = new ReentrantLock();
  private Listener<R> listener;
  private Metadata headers;
  /** Attempts running: one, or several while hedging. */
  private final List<Attempt> live = new ArrayList<>(2);
  /** How many picks the call made. */
  private int picks;
  /** The first pick, once made. */
  private Pick firstPick;
  /**
   * Every pick so far, oldest first, once there are two: most calls make one attempt, and keep no list
   * for it.
   */
  private List<Pick> morePicks;
  /** The attempt whose events reach the listener, once one answered or the call committed to it. */
  private Attempt winner;
  /** Attempts started, transparent retries aside. */
  private int attempts;
  private boolean transparentRetryUsed;
  /** Whether the first attempt was made, or the call ended without one. */
  private boolean launched;
  /**
   * Whether no further attempt can be made (an answer came, or the requests kept passed the limits):
   * the requests are no longer kept.
   */
  private boolean committed;
  private boolean cancelled;
  private boolean closed;
  private boolean halfClosed;
  private boolean noMoreHedges;
  private boolean messageCompression = true;
  /** Whether the call sends one request (unary, server streaming). */
  private final boolean sendsOne;
  /** Whether a call that sends one request sent it. */
  private boolean sentOne;
  private int requested;
  /** The requests sent so far, for replay, while not committed (and until the first attempt has them). */
  private List<Q> kept;
  /** The one request of a call that sends one, kept as {@link #kept} is. */
  private Q keptRequest;
  private long keptBytes;
  /** The next attempt waiting to start (backoff, hedging delay, or the picker's readiness). */
  private ScheduledFuture<?> pending;
  private double backoffNanos;
  /** How the last failed attempt ended, while the next one waits. */
  private Status lastStatus;
  private Metadata lastTrailers;

  RetriableCall(RetriableCalls calls, MethodDescriptor<Q, R> method, CallOptions options, Picker picker,
      MethodConfig config, Executor callExecutor) {
    this.calls = calls;
    this.method = method;
    this.options = options;
    this.picker = picker;
    this.callExecutor = callExecutor;
    this.retryPolicy = config == null ? null : config.retryPolicy();
    this.hedgingPolicy = config == null ? null : config.hedgingPolicy();
    int failover = retryPolicy == null && hedgingPolicy == null && method.isIdempotent()
        && method.type().clientSendsOneMessage() ? picker.failoverRetries() : 0;
    this.failsOver = failover > 0;
    this.maxAttempts = retryPolicy != null ? retryPolicy.maxAttempts()
        : hedgingPolicy != null ? hedgingPolicy.maxAttempts() : 1 + failover;
    this.backoffNanos = retryPolicy == null ? 0 : retryPolicy.initialBackoff().toNanos();
    this.startNanos = calls.nanoTime();
    this.sendsOne = method.type().clientSendsOneMessage();
    if (!sendsOne) {
      kept = new ArrayList<>();
    }
    this.budgeted = kept != null || retryPolicy != null || hedgingPolicy != null;
  }

  @Override
  public void start(Listener<R> listener, Metadata headers) {
    boolean ready = picker.isReady();
    Status failure;
    lock.lock();
    try {
      if (this.listener != null) {
        throw new IllegalStateException("Call already started");
      }
      this.listener = listener;
      this.headers = headers;
      if (cancelled) {
        launched = true;
        closed = true;
        failure = Status.CANCELLED.withDescription("Call cancelled before it started");
      } else if (!ready && deferUntilReady()) {
        return;
      } else {
        launched = true;
        failure = endIfFailed(startAttempt(false));
      }
    } finally {
      lock.unlock();
    }
    if (failure != null) {
      closeLater(failure, new Metadata());
    }
  }

  /** Marks the call ended if {@code failure} is not null; returns it. Under the lock. */
  private Status endIfFailed(Status failure) {
    if (failure != null) {
      closed = true;
      commit();
    }
    return failure;
  }

  /**
   * Before the picker knows any server, the call waits for it without holding the caller's thread:
   * what the caller sends meanwhile is kept, and the first attempt starts when the servers are known,
   * or the call ends when the wait is over (at most the picker's wait, never past the deadline). False
   * if the client is closing: the call goes at once, and ends.
   */
  private boolean deferUntilReady() {
    long wait = picker.readyWaitNanos();
    if (options.timeoutNanos() > 0) {
      wait = Math.min(wait, options.timeoutNanos());
    }
    try {
      pending = calls.scheduler().schedule(this::launch, wait, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      return false;
    }
    picker.whenReady(this::launch);
    return true;
  }

  /** Makes the first attempt after a wait for the picker, once; or ends the call if it cannot. */
  private void launch() {
    Status failure;
    lock.lock();
    try {
      if (launched) {
        return;
      }
      launched = true;
      cancelPending();
      if (cancelled) {
        return; // cancel() ended the call.
      }
      if (options.timeoutNanos() > 0 && timeLeftNanos() <= 0) {
        failure = Status.DEADLINE_EXCEEDED.withDescription(
            "Deadline exceeded while waiting for the first instances of " + picker.describe());
        closed = true;
        commit();
      } else {
        failure = endIfFailed(startAttempt(false));
      }
    } finally {
      lock.unlock();
    }
    if (failure != null) {
      closeLater(failure, new Metadata());
    }
  }

  /**
   * Starts an attempt on the server the picker chooses: a transparent retry counts as no attempt of
   * its own and tells the server as many earlier attempts as the one it replaces. Returns why the call
   * would end instead (no server to go to), or null. Under the lock.
   */
  private Status startAttempt(boolean transparent) {
    Pick pick;
    try {
      pick = picker.pick(method, options, headers, tried());
    } catch (RuntimeException e) {
      pick = null;
    }
    if (pick == null) {
      return lastStatus != null ? lastStatus : Status.UNAVAILABLE.withDescription(picker.noServerReason());
    }
    return startAttempt(pick, transparent);
  }

  private Status startAttempt(Pick pick, boolean transparent) {
    int previous = transparent ? Math.max(0, attempts - 1) : attempts++;
    recordPick(pick);
    CallOptions attemptOptions = pick.options(options);
    long lateNanos = 0;
    if (options.timeoutNanos() > 0) {
      long left = timeLeftNanos();
      lateNanos = options.timeoutNanos() - left;
      if (lateNanos > WAITED_NANOS) {
        attemptOptions = attemptOptions.withTimeout(Math.max(1, left), TimeUnit.NANOSECONDS);
      }
    }
    Metadata attemptHeaders = headers;
    if (picks > 1) {
      // The first attempt may have added the export's names and credentials to the caller's headers:
      // each attempt names its own.
      attemptHeaders = new Metadata().merge(headers);
      attemptHeaders.removeAll(PREVIOUS_ATTEMPTS);
      if (previous > 0) {
        attemptHeaders.put(PREVIOUS_ATTEMPTS, Integer.toString(previous));
      }
    }
    Attempt attempt = new Attempt(pick, lateNanos);
    AttemptCall<Q, R> call;
    try {
      call = calls.newAttempt(pick, method, attemptOptions, callExecutor);
      attempt.call = call;
      live.add(attempt);
      call.start(attempt, attemptHeaders);
    } catch (RuntimeException | Error e) {
      live.remove(attempt);
      pick.attemptEnded(null);
      if (picks == 1) {
        closed = true;
        commit();
        throw e;
      }
      return lastStatus != null ? lastStatus
          : Status.UNAVAILABLE.withDescription("Could not start another attempt: " + e).withCause(e);
    }
    if (!messageCompression) {
      call.setMessageCompression(false);
    }
    if (requested > 0) {
      call.request(requested);
    }
    // The first attempt of a call that waited for its servers counts what was kept meanwhile.
    boolean count = picks == 1 && !committed && budgeted;
    if (keptRequest != null) {
      long size = call.send(keptRequest);
      if (count) {
        keepWithin(size);
      }
    } else if (kept != null) {
      for (int i = 0; i < kept.size(); i++) {
        long size = call.send(kept.get(i));
        if (count && !committed) {
          keepWithin(size);
        }
      }
    }
    if (committed) {
      // Kept past the limits only for this first attempt: nothing will be replayed.
      release();
    }
    if (halfClosed) {
      call.halfClose();
    }
    if (hedgingPolicy != null && attempts < maxAttempts && !committed) {
      scheduleHedge(hedgingPolicy.hedgingDelay().toNanos());
    }
    return null;
  }

  /** The call's picks so far, oldest first. Under the lock. */
  private List<Pick> tried() {
    return picks == 0 ? List.of() : picks == 1 ? List.of(firstPick) : morePicks;
  }

  private void recordPick(Pick pick) {
    if (picks == 0) {
      firstPick = pick;
    } else {
      if (morePicks == null) {
        morePicks = new ArrayList<>(4);
        morePicks.add(firstPick);
      }
      morePicks.add(pick);
    }
    picks++;
  }

  private long timeLeftNanos() {
    return options.timeoutNanos() - (calls.nanoTime() - startNanos);
  }

  /** Whether the call may still make an attempt that takes {@code delayNanos} to start. */
  private boolean timeLeftAfter(long delayNanos) {
    return options.timeoutNanos() <= 0 || timeLeftNanos() > delayNanos;
  }

  @Override
  public void request(int count) {
    lock.lock();
    try {
      checkStarted();
      requested = (int) Math.min(Integer.MAX_VALUE, (long) requested + count);
      for (int i = 0; i < live.size(); i++) {
        live.get(i).call.request(count);
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void sendMessage(Q message) {
    Status failure = null;
    lock.lock();
    try {
      checkStarted();
      if (halfClosed) {
        throw new IllegalStateException("sendMessage after halfClose");
      }
      if (sendsOne) {
        if (sentOne) {
          throw new IllegalStateException(method.type() + " call " + method.fullMethodName() + " sends one request");
        }
        sentOne = true;
      }
      if (closed) {
        return;
      }
      if (!committed || !launched) {
        if (sendsOne) {
          keptRequest = message;
        } else if (kept != null) {
          kept.add(message);
        }
      }
      long size = -1;
      for (int i = 0; i < live.size(); i++) {
        long sent = live.get(i).call.send(message);
        size = Math.max(size, sent);
      }
      if (!committed && launched && budgeted) {
        keepWithin(size >= 0 ? size : calls.sizeOf(method, message));
        if (committed && live.isEmpty() && pending != null) {
          // Waiting to go again, but no longer able to replay everything: the call ends as the last
          // attempt did.
          closed = true;
          cancelPending();
          failure = lastStatus;
        }
      }
    } finally {
      lock.unlock();
    }
    if (failure != null) {
      closeLater(failure, lastTrailers);
    }
  }

  /** Counts {@code size} more bytes kept; past the call's or the client's limit, the call commits. */
  private void keepWithin(long size) {
    if (keptBytes + size > calls.perCallBufferBytes() || !calls.budget().take(size)) {
      commitToOldest();
      return;
    }
    keptBytes += size;
  }

  /**
   * Commits to the oldest attempt running (others are cancelled, with a reason); with none running,
   * only stops keeping requests. Under the lock.
   */
  private void commitToOldest() {
    if (live.isEmpty()) {
      commit();
      return;
    }
    Attempt oldest = live.get(0);
    List<Attempt> losers = win(oldest);
    for (Attempt loser : losers) {
      // Called under the lock: an attempt hands its events to the executor, never back on this thread.
      loser.call.cancel("Another attempt was committed: the requests passed the retry buffer", null);
    }
  }

  @Override
  public void halfClose() {
    lock.lock();
    try {
      checkStarted();
      if (halfClosed || closed) {
        return;
      }
      halfClosed = true;
      for (int i = 0; i < live.size(); i++) {
        live.get(i).call.halfClose();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void cancel(String message, Throwable cause) {
    List<Attempt> running;
    boolean endNow;
    lock.lock();
    try {
      if (cancelled || closed) {
        return;
      }
      cancelled = true;
      cancelPending();
      running = live.isEmpty() ? List.of() : List.copyOf(live);
      // Cancelled while waiting (for the servers, or to go again): end it now. (Before start: start ends it.)
      endNow = listener != null && running.isEmpty();
      if (endNow) {
        launched = true;
        closed = true;
        commit();
      }
    } finally {
      lock.unlock();
    }
    if (endNow) {
      Status status = Status.CANCELLED.withDescription(message != null ? message : "Call cancelled").withCause(cause);
      closeLater(status, new Metadata());
      return;
    }
    for (Attempt attempt : running) {
      attempt.call.cancel(message, cause);
    }
  }

  @Override
  public boolean isReady() {
    lock.lock();
    try {
      if (winner != null) {
        return winner.call.isReady();
      }
      for (int i = 0; i < live.size(); i++) {
        if (!live.get(i).call.isReady()) {
          return false;
        }
      }
      return !live.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    lock.lock();
    try {
      messageCompression = enabled;
      for (int i = 0; i < live.size(); i++) {
        live.get(i).call.setMessageCompression(enabled);
      }
    } finally {
      lock.unlock();
    }
  }

  private void checkStarted() {
    if (listener == null) {
      throw new IllegalStateException("Call not started");
    }
  }

  /** No further attempt: the requests kept for one go. Under the lock. */
  private void commit() {
    if (committed) {
      return;
    }
    committed = true;
    cancelPending();
    if (launched) {
      release();
    }
  }

  private void release() {
    if (kept != null) {
      kept = null;
    }
    keptRequest = null;
    if (keptBytes > 0) {
      calls.budget().giveBack(keptBytes);
      keptBytes = 0;
    }
  }

  private void cancelPending() {
    if (pending != null) {
      pending.cancel(false);
      pending = null;
    }
  }

  /**
   * {@code attempt} answered first, or the call commits to it: the others go. Under the lock; returns
   * the losers, to be cancelled.
   */
  private List<Attempt> win(Attempt attempt) {
    winner = attempt;
    commit();
    if (live.size() == 1) {
      return List.of();
    }
    List<Attempt> losers = new ArrayList<>(live);
    losers.remove(attempt);
    live.clear();
    live.add(attempt);
    return losers;
  }

  private static void cancelLosers(List<? extends RetriableCall<?, ?>.Attempt> losers) {
    for (RetriableCall<?, ?>.Attempt loser : losers) {
      loser.call.cancel("Another hedged attempt answered first", null);
    }
  }

  /** Ends the call from outside its attempts' events: on the call executor, which a blocked caller drains. */
  private void closeLater(Status status, Metadata trailers) {
    Listener<R> target = listener;
    try {
      callExecutor.execute(() -> target.onClose(status, trailers));
    } catch (RejectedExecutionException e) {
      target.onClose(status, trailers);
    }
  }

  /** Starts the next hedge in {@code delayNanos}, replacing the one waiting. Under the lock. */
  private void scheduleHedge(long delayNanos) {
    cancelPending();
    if (!timeLeftAfter(delayNanos)) {
      return;
    }
    try {
      pending = calls.scheduler().schedule(this::hedge, delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // The client is closing: no more hedges.
    }
  }

  private void hedge() {
    Status failure;
    lock.lock();
    try {
      pending = null;
      if (closed || cancelled || winner != null || noMoreHedges || attempts >= maxAttempts) {
        return;
      }
      failure = startAttempt(false);
      if (failure != null && !live.isEmpty()) {
        return; // No server for this hedge; those running go on.
      }
      endIfFailed(failure);
    } finally {
      lock.unlock();
    }
    if (failure != null) {
      closeLater(failure, lastTrailers != null ? lastTrailers : new Metadata());
    }
  }

  /** The next attempt after a backoff. */
  private void retry() {
    Status failure;
    lock.lock();
    try {
      pending = null;
      if (closed || cancelled) {
        return;
      }
      failure = endIfFailed(startAttempt(false));
    } finally {
      lock.unlock();
    }
    if (failure != null) {
      closeLater(failure, lastTrailers != null ? lastTrailers : new Metadata());
    }
  }

  /**
   * The delay before the next attempt of a retry policy, or -1 for none: the server's pushback if it sent
   * one (a negative or malformed one means no retry), else a random part of the current backoff.
   */
  private long retryDelayNanos(Metadata trailers) {
    String pushback = trailers.get(PUSHBACK);
    if (pushback != null) {
      long millis = parsePushback(pushback);
      if (millis >= 0) {
        backoffNanos = retryPolicy.initialBackoff().toNanos();
        return TimeUnit.MILLISECONDS.toNanos(millis);
      }
      return -1;
    }
    long delay = (long) (calls.jitter() * backoffNanos);
    backoffNanos = Math.min(backoffNanos * retryPolicy.backoffMultiplier(), retryPolicy.maxBackoff().toNanos());
    return delay;
  }

  /** A pushback's milliseconds; negative (no retry) when malformed. */
  static long parsePushback(String pushback) {
    try {
      return Long.parseLong(pushback.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * What follows a failed attempt that no other attempt has beaten: true if the call goes on (another
   * attempt started or waits, or others run), false if it ends with this failure. Under the lock.
   */
  private boolean goesOn(Status status, Metadata trailers) {
    if (committed || cancelled) {
      return false;
    }
    if (hedgingPolicy != null) {
      return hedgeGoesOn(status, trailers);
    }
    if (retryPolicy != null) {
      if (!retryPolicy.retryableStatusCodes().contains(status.code())) {
        return false;
      }
      boolean throttleAllows = calls.throttle() == null || calls.throttle().failedMayRetry();
      if (attempts >= maxAttempts || !throttleAllows) {
        return false;
      }
      long delay = retryDelayNanos(trailers);
      if (delay < 0 || !timeLeftAfter(delay)) {
        return false;
      }
      remember(status, trailers);
      try {
        pending = calls.scheduler().schedule(this::retry, delay, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException e) {
        return false;
      }
      return true;
    }
    if (failsOver && status.code() == Status.Code.UNAVAILABLE && attempts < maxAttempts && timeLeftAfter(0)) {
      Pick next;
      try {
        next = picker.pick(method, options, headers, tried());
      } catch (RuntimeException e) {
        next = null;
      }
      if (next == null) {
        return false;
      }
      if (picker.wasTried(next, tried())) {
        next.attemptEnded(null);
        return false;
      }
      remember(status, trailers);
      return startAttempt(next, false) == null;
    }
    return false;
  }

  /** Hedging's answer to a failed attempt (see {@link #goesOn}). */
  private boolean hedgeGoesOn(Status status, Metadata trailers) {
    if (!hedgingPolicy.nonFatalStatusCodes().contains(status.code())) {
      return false;
    }
    if (calls.throttle() != null && !calls.throttle().failedMayRetry()) {
      noMoreHedges = true;
    }
    remember(status, trailers);
    String pushback = trailers.get(PUSHBACK);
    if (pushback != null) {
      long millis = parsePushback(pushback);
      if (millis < 0) {
        noMoreHedges = true;
      } else if (!noMoreHedges) {
        scheduleHedge(TimeUnit.MILLISECONDS.toNanos(millis));
      }
    } else if (!noMoreHedges && attempts < maxAttempts && timeLeftAfter(0)) {
      // A non-fatal failure sends the next hedge at once, ahead of its delay.
      cancelPending();
      startAttempt(false); // Without a server for it, those running (if any) go on.
    }
    if (noMoreHedges) {
      cancelPending();
    }
    return !live.isEmpty() || pending != null;
  }

  private void remember(Status status, Metadata trailers) {
    lastStatus = status;
    lastTrailers = trailers;
  }

  /** One attempt's events: only those of the attempt that wins reach the listener. */
  private final class Attempt extends AttemptCall.Listener<R> {
    private final Pick pick;
    /** How far into the call's deadline the attempt was made; 0 without a deadline. */
    private final long lateNanos;
    /** Set before the call starts. */
    AttemptCall<Q, R> call;

    Attempt(Pick pick, long lateNanos) {
      this.pick = pick;
      this.lateNanos = lateNanos;
    }

    /** Whether this attempt's response goes to the listener, making it the winner if none is yet. */
    private boolean claim() {
      List<Attempt> losers;
      lock.lock();
      try {
        if (winner == this) {
          return true;
        }
        if (winner != null || closed || !live.contains(this)) {
          return false;
        }
        losers = win(this);
      } finally {
        lock.unlock();
      }
      cancelLosers(losers);
      return true;
    }

    @Override
    public void onHeaders(Metadata responseHeaders) {
      if (claim()) {
        listener.onHeaders(responseHeaders);
      }
    }

    @Override
    public void onMessage(R message) {
      if (claim()) {
        listener.onMessage(message);
      }
    }

    @Override
    public void onReady() {
      lock.lock();
      try {
        if (closed || (winner != null ? winner != this : !live.contains(this))) {
          return;
        }
      } finally {
        lock.unlock();
      }
      listener.onReady();
    }

    @Override
    void onUnprocessed(Status status) {
      pick.attemptEnded(status);
      lock.lock();
      try {
        if (!closed && winner == null && !cancelled && !committed && !transparentRetryUsed
            && live.contains(this) && timeLeftAfter(0)) {
          transparentRetryUsed = true;
          live.remove(this);
          if (startAttempt(true) == null) {
            return;
          }
          live.add(this); // No server for it: the call goes on as if this attempt failed.
        }
      } finally {
        lock.unlock();
      }
      ended(status, new Metadata());
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      pick.attemptEnded(status);
      ended(status, trailers);
    }

    private void ended(Status status, Metadata trailers) {
      List<Attempt> losers = List.of();
      lock.lock();
      try {
        if (closed || !live.remove(this)) {
          return; // A loser, or the call already ended.
        }
        if (winner != this && !cancelled) {
          if (status.isOk()) {
            if (calls.throttle() != null) {
              calls.throttle().succeeded();
            }
          } else if (goesOn(status, trailers)) {
            return;
          }
          if (winner == null && !live.isEmpty()) {
            losers = List.copyOf(live);
            live.clear();
          }
        }
        closed = true;
        commit();
      } finally {
        lock.unlock();
      }
      cancelLosers(losers);
      listener.onClose(inTermsOfTheCall(status), trailers);
    }

    /**
     * An attempt made after the call began (once instances were found, after a backoff or earlier
     * attempts) has only what was left of the call's deadline, and its own timer's message names that
     * remainder ("after 9 ms" for a call that waited 1.5 s): the caller is told the deadline it set.
     */
    private Status inTermsOfTheCall(Status status) {
      if (status.code() != Status.Code.DEADLINE_EXCEEDED || lateNanos <= WAITED_NANOS) {
        return status;
      }
      return status.withDescription("Deadline exceeded after " + TimeUnit.NANOSECONDS.toMillis(options.timeoutNanos())
          + " ms; the last attempt began " + TimeUnit.NANOSECONDS.toMillis(lateNanos) + " ms into it"
          + (status.description() == null ? "" : " (" + status.description() + ")"));
    }
  }
}
