package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.spi.Connection;
import io.triplerpc.spi.Picker;
import io.triplerpc.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one attempt loop on a controllable clock, against attempts the test plays on servers a scripted
 * picker chooses: gRPC's retry design (A6: backoff with the jitter fixed at its top, attempts, retryable
 * codes, commitment, pushback, throttling, the deadline, cancellation while waiting, replay of what a
 * stream sent, the retry buffer), hedging, the transparent retry, failover without a policy, and every
 * policy over several servers, with the attempts each makes counted exactly.
 */
class RetriableCallTest {

  private static final MethodDescriptor<StringValue, StringValue> UNARY = MethodDescriptor.of("test.S", "u",
      MethodType.UNARY, Serializations.codecFor(StringValue.class), Serializations.codecFor(StringValue.class), false);
  private static final MethodDescriptor<StringValue, StringValue> IDEMPOTENT = MethodDescriptor.of("test.S", "i",
      MethodType.UNARY, Serializations.codecFor(StringValue.class), Serializations.codecFor(StringValue.class), true);
  private static final MethodDescriptor<StringValue, StringValue> BIDI = MethodDescriptor.of("test.S", "b",
      MethodType.BIDI_STREAMING, Serializations.codecFor(StringValue.class), Serializations.codecFor(StringValue.class),
      false);
  private static final RetryPolicy POLICY = RetryPolicy.builder().maxAttempts(3)
      .initialBackoff(Duration.ofMillis(100)).maxBackoff(Duration.ofMillis(150)).backoffMultiplier(2)
      .retryableStatusCodes(Status.Code.UNAVAILABLE).build();
  private static final HedgingPolicy HEDGING = HedgingPolicy.builder().maxAttempts(3)
      .hedgingDelay(Duration.ofMillis(50)).nonFatalStatusCodes(Status.Code.UNAVAILABLE).build();

  private final ManualClock clock = new ManualClock();
  private final List<Attempt> attempts = new ArrayList<>();
  private final Recorder recorder = new Recorder();
  /** The servers by default: one, as a client of one address has. */
  private ScriptedPicker picker = new ScriptedPicker(0, "only");

  @AfterEach
  void stop() {
    clock.close();
  }

  /** One attempt the loop made: where it went, what it was started and sent with; the test ends it. */
  private static final class Attempt extends AttemptCall<StringValue, StringValue> {
    final Server server;
    final CallOptions options;
    AttemptCall.Listener<StringValue> listener;
    Metadata headers;
    final List<String> sent = new ArrayList<>();
    boolean halfClosed;
    String cancelled;

    Attempt(Server server, CallOptions options) {
      this.server = server;
      this.options = options;
    }

    @Override
    public void start(ClientCall.Listener<StringValue> listener, Metadata headers) {
      this.listener = (AttemptCall.Listener<StringValue>) listener;
      this.headers = headers;
    }

    @Override
    public void request(int count) {}

    @Override
    public void cancel(String message, Throwable cause) {
      cancelled = message;
      listener.onClose(Status.CANCELLED.withDescription(message), new Metadata());
    }

    @Override
    public void halfClose() {
      halfClosed = true;
    }

    @Override
    long send(StringValue message) {
      sent.add(message.getValue());
      return message.getSerializedSize() + 5;
    }

    @Override
    public boolean isReady() {
      return true;
    }

    void fail(Status.Code code, Metadata trailers) {
      listener.onClose(Status.fromCodeValue(code.value()), trailers);
    }

    int previousAttempts() {
      String previous = headers.get(RetriableCall.PREVIOUS_ATTEMPTS);
      return previous == null ? 0 : Integer.parseInt(previous);
    }
  }

  /** What the application's listener heard. */
  private static final class Recorder extends ClientCall.Listener<StringValue> {
    final List<String> events = new ArrayList<>();
    Status closed;

    @Override
    public void onHeaders(Metadata headers) {
      events.add("headers");
    }

    @Override
    public void onMessage(StringValue message) {
      events.add("message " + message.getValue());
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      assertNull(closed, "one close");
      events.add("close " + status.code());
      closed = status;
    }
  }

  /** A server a {@link ScriptedPicker} picks: each pick counts until its attempt ends. */
  private static final class Server implements Picker.Pick {
    final String name;
    int active;
    final List<Status.Code> ended = new ArrayList<>();

    Server(String name) {
      this.name = name;
    }

    @Override
    public Connection connection() {
      throw new UnsupportedOperationException("the test's attempts need no connection");
    }

    @Override
    public boolean sameServer(Picker.Pick other) {
      return other == this;
    }

    @Override
    public void attemptEnded(Status status) {
      active--;
      ended.add(status == null ? null : status.code());
    }
  }

  /** Picks its servers in turn, passing over those tried while any is left; ready unless told. */
  private static final class ScriptedPicker implements Picker {
    final List<Server> servers = new ArrayList<>();
    final int failoverRetries;
    int next;
    boolean ready = true;
    final List<Runnable> waiting = new ArrayList<>();

    ScriptedPicker(int failoverRetries, String... names) {
      this.failoverRetries = failoverRetries;
      for (String name : names) {
        servers.add(new Server(name));
      }
    }

    @Override
    public boolean isReady() {
      return ready;
    }

    @Override
    public void whenReady(Runnable task) {
      if (ready) {
        task.run();
      } else {
        waiting.add(task);
      }
    }

    void becomeReady() {
      ready = true;
      waiting.forEach(Runnable::run);
    }

    @Override
    public long readyWaitNanos() {
      return Duration.ofSeconds(3).toNanos();
    }

    @Override
    public Pick pick(MethodDescriptor<?, ?> method, List<Pick> tried) {
      if (servers.isEmpty()) {
        return null;
      }
      Server chosen = null;
      for (int i = 0; i < servers.size() && chosen == null; i++) {
        Server candidate = servers.get((next + i) % servers.size());
        if (!tried.contains(candidate)) {
          chosen = candidate;
          next = (next + i + 1) % servers.size();
        }
      }
      if (chosen == null) {
        chosen = servers.get(next);
        next = (next + 1) % servers.size();
      }
      chosen.active++;
      return chosen;
    }

    @Override
    public String noServerReason() {
      return "No instance of test.S is registered";
    }

    @Override
    public String describe() {
      return "test.S";
    }

    @Override
    public int failoverRetries() {
      return failoverRetries;
    }
  }

  private RetriableCalls.Attempts attemptsOnServers() {
    return new RetriableCalls.Attempts() {
      @Override
      @SuppressWarnings("unchecked")
      public <Q, R> AttemptCall<Q, R> newAttempt(Picker.Pick pick, MethodDescriptor<Q, R> method, CallOptions options,
          Executor callExecutor) {
        Attempt attempt = new Attempt((Server) pick, pick.options(options));
        attempts.add(attempt);
        return (AttemptCall<Q, R>) attempt;
      }
    };
  }

  private RetriableCalls calls(Map<String, MethodConfig> configs, Throttle throttle, long perCallBuffer,
      long perClientBuffer) {
    return new RetriableCalls((method, options) -> picker, attemptsOnServers(),
        new MethodSettings(configs, throttle, perCallBuffer, perClientBuffer), clock.scheduler(), clock::nanoTime,
        () -> 1.0, Runnable::run);
  }

  private RetriableCalls calls(Throttle throttle, long perCallBuffer) {
    return calls(Map.of("test.S", MethodConfig.EMPTY.withRetryPolicy(POLICY)), throttle, perCallBuffer, 1 << 20);
  }

  private RetriableCalls hedged() {
    return calls(Map.of("test.S", MethodConfig.EMPTY.withHedgingPolicy(HEDGING)), null, 1 << 20, 1 << 20);
  }

  private RetriableCalls withoutPolicy() {
    return calls(Map.of(), null, 1 << 20, 1 << 20);
  }

  private ClientCall<StringValue, StringValue> unary(RetriableCalls calls, CallOptions options, String request) {
    return unary(calls, UNARY, options, request);
  }

  private ClientCall<StringValue, StringValue> unary(RetriableCalls calls,
      MethodDescriptor<StringValue, StringValue> method, CallOptions options, String request) {
    ClientCall<StringValue, StringValue> call = calls.newCall(method, options);
    call.start(recorder, new Metadata());
    call.request(2);
    call.sendMessage(StringValue.of(request));
    call.halfClose();
    return call;
  }

  private static Metadata pushback(String millis) {
    return new Metadata().put(RetriableCall.PUSHBACK, millis);
  }

  /** Where the attempts went, in order. */
  private String servers() {
    return attempts.stream().map(a -> a.server.name).collect(Collectors.joining(","));
  }

  @Test
  void aRetryableFailureGoesAgainAfterTheBackoffWithWhatWasSent() {
    unary(calls(null, 1 << 20), CallOptions.DEFAULT, "hello");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertNull(recorder.closed, "the application hears nothing of a failure that goes again");
    clock.advance(Duration.ofMillis(99));
    assertEquals(1, attempts.size(), "not before the backoff");
    clock.advance(Duration.ofMillis(1));
    Attempt second = attempts.get(1);
    assertEquals(List.of("hello"), second.sent);
    assertTrue(second.halfClosed);
    assertEquals("1", second.headers.get(RetriableCall.PREVIOUS_ATTEMPTS));
    assertNull(attempts.get(0).headers.get(RetriableCall.PREVIOUS_ATTEMPTS));
    second.listener.onHeaders(new Metadata());
    second.listener.onMessage(StringValue.of("hi"));
    second.listener.onClose(Status.OK, new Metadata());
    assertEquals(List.of("headers", "message hi", "close OK"), recorder.events);
  }

  @Test
  void theBackoffGrowsToItsMaximumAndAttemptsEnd() {
    unary(calls(null, 1 << 20), CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    clock.advance(Duration.ofMillis(100));
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    clock.advance(Duration.ofMillis(149));
    assertEquals(2, attempts.size(), "200 ms capped at 150 ms");
    clock.advance(Duration.ofMillis(1));
    assertEquals("2", attempts.get(2).headers.get(RetriableCall.PREVIOUS_ATTEMPTS));
    attempts.get(2).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code(), "three attempts, then the failure");
    clock.advance(Duration.ofSeconds(10));
    assertEquals(3, attempts.size());
  }

  @Test
  void otherCodesAndCommittedCallsAreNotRetried() {
    unary(calls(null, 1 << 20), CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.INVALID_ARGUMENT, new Metadata());
    assertEquals(Status.Code.INVALID_ARGUMENT, recorder.closed.code());

    Recorder second = new Recorder();
    ClientCall<StringValue, StringValue> call = calls(null, 1 << 20).newCall(UNARY, CallOptions.DEFAULT);
    call.start(second, new Metadata());
    call.sendMessage(StringValue.of("y"));
    call.halfClose();
    attempts.get(1).listener.onHeaders(new Metadata());
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(List.of("headers", "close UNAVAILABLE"), second.events, "headers commit the call");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(2, attempts.size());
  }

  @Test
  void theServersPushbackSetsTheDelayOrStopsRetrying() {
    unary(calls(null, 1 << 20), CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, pushback("500"));
    clock.advance(Duration.ofMillis(499));
    assertEquals(1, attempts.size());
    clock.advance(Duration.ofMillis(1));
    assertEquals(2, attempts.size(), "exactly the pushback, no jitter");
    attempts.get(1).fail(Status.Code.UNAVAILABLE, pushback("-1"));
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code(), "a negative pushback means do not retry");
  }

  @Test
  void throttlingStopsRetriesWhenHalfTheTokensAreGone() {
    Throttle throttle = new Throttle(4, 1);
    RetriableCalls calls = calls(throttle, 1 << 20);
    unary(calls, CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    clock.advance(Duration.ofMillis(100));
    assertEquals(2, attempts.size(), "3 tokens left of 4: more than half");
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code(), "2 left: not more than half");
  }

  @Test
  void theDeadlineCoversEveryAttempt() {
    unary(calls(null, 1 << 20), CallOptions.DEFAULT.withTimeout(Duration.ofMillis(150)), "x");
    assertEquals(Duration.ofMillis(150).toNanos(), attempts.get(0).options.timeoutNanos());
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    clock.advance(Duration.ofMillis(100));
    assertEquals(Duration.ofMillis(50).toNanos(), attempts.get(1).options.timeoutNanos(), "what is left");
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code(), "150 ms more would pass the deadline");
  }

  @Test
  void aMethodsOwnConfigWithoutAPolicyHidesItsServicesPolicy() {
    RetriableCalls calls = calls(Map.of("test.S", MethodConfig.EMPTY.withRetryPolicy(POLICY),
        "test.S/u", new MethodConfig(null, null, Duration.ofSeconds(1).toNanos())), null, 1 << 20, 1 << 20);
    unary(calls, CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code(), "the method's config is taken whole, as in gRPC");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, attempts.size());
  }

  @Test
  void aCancelWhileWaitingEndsTheCall() {
    ClientCall<StringValue, StringValue> call = unary(calls(null, 1 << 20), CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    call.cancel("changed my mind", null);
    assertEquals(Status.Code.CANCELLED, recorder.closed.code());
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, attempts.size());
  }

  @Test
  void aStreamReplaysWhatItSentInOrderThenSendsOnTheNewAttempt() {
    ClientCall<StringValue, StringValue> call = calls(null, 1 << 20).newCall(BIDI, CallOptions.DEFAULT);
    call.start(recorder, new Metadata());
    call.sendMessage(StringValue.of("a"));
    call.sendMessage(StringValue.of("b"));
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    call.sendMessage(StringValue.of("c"));
    clock.advance(Duration.ofMillis(100));
    call.sendMessage(StringValue.of("d"));
    call.halfClose();
    assertEquals(List.of("a", "b", "c", "d"), attempts.get(1).sent);
    assertTrue(attempts.get(1).halfClosed);
  }

  @Test
  void aCallPastTheRetryBufferIsNoLongerRetried() {
    ClientCall<StringValue, StringValue> call = calls(null, 10).newCall(BIDI, CallOptions.DEFAULT);
    call.start(recorder, new Metadata());
    call.sendMessage(StringValue.of("a message longer than ten bytes"));
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code());
    assertEquals(1, attempts.size());
  }

  @Test
  void hedgesGoOutADelayApartAndTheFirstAnswerWinsTheOthersCancelled() {
    unary(hedged(), CallOptions.DEFAULT, "x");
    assertEquals(1, attempts.size());
    clock.advance(Duration.ofMillis(50));
    assertEquals(2, attempts.size());
    assertEquals("1", attempts.get(1).headers.get(RetriableCall.PREVIOUS_ATTEMPTS));
    assertEquals(List.of("x"), attempts.get(1).sent, "a hedge replays the request");
    attempts.get(1).listener.onHeaders(new Metadata());
    attempts.get(1).listener.onMessage(StringValue.of("second"));
    assertEquals("Another hedged attempt answered first", attempts.get(0).cancelled);
    clock.advance(Duration.ofSeconds(1));
    assertEquals(2, attempts.size(), "no hedge after a winner");
    attempts.get(1).listener.onClose(Status.OK, new Metadata());
    assertEquals(List.of("headers", "message second", "close OK"), recorder.events);
  }

  @Test
  void aNonFatalFailureSendsTheNextHedgeAtOnceAndAFatalOneEndsTheCall() {
    unary(hedged(), CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(2, attempts.size(), "at once, not after the delay");
    assertNull(recorder.closed);
    attempts.get(1).fail(Status.Code.INVALID_ARGUMENT, new Metadata());
    assertEquals(Status.Code.INVALID_ARGUMENT, recorder.closed.code());
    clock.advance(Duration.ofSeconds(1));
    assertEquals(2, attempts.size());
  }

  @Test
  void whenEveryHedgeFailsNonFatallyTheLastFailureEndsTheCall() {
    unary(hedged(), CallOptions.DEFAULT, "x");
    clock.advance(Duration.ofMillis(100));
    assertEquals(3, attempts.size());
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    attempts.get(2).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertNull(recorder.closed, "one still runs");
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code());
  }

  @Test
  void aNegativePushbackStopsFurtherHedges() {
    unary(hedged(), CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, pushback("-1"));
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code());
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, attempts.size());
  }

  // Every policy over several servers: the attempts a server sees are the policy's, whatever picks them.

  @Test
  void aFiveAttemptPolicyOverThreeFailingServersMakesFiveAttemptsInAll() {
    picker = new ScriptedPicker(2, "a", "b", "c"); // failover's own default of two retries is there too
    RetryPolicy five = RetryPolicy.builder().maxAttempts(5).initialBackoff(Duration.ofMillis(100))
        .maxBackoff(Duration.ofMillis(100)).backoffMultiplier(1).retryableStatusCodes(Status.Code.UNAVAILABLE).build();
    unary(calls(Map.of("test.S", MethodConfig.EMPTY.withRetryPolicy(five)), null, 1 << 20, 1 << 20), IDEMPOTENT,
        CallOptions.DEFAULT, "x");
    for (int i = 0; i < 10 && recorder.closed == null; i++) {
      attempts.get(attempts.size() - 1).fail(Status.Code.UNAVAILABLE, new Metadata());
      clock.advance(Duration.ofMillis(100));
    }
    clock.advance(Duration.ofSeconds(10));
    assertEquals(5, attempts.size(), "five attempts, not five per server nor three times five");
    assertEquals("a,b,c,a,b", servers(), "each retry on a server not tried while one is left");
    assertEquals(List.of(0, 1, 2, 3, 4), attempts.stream().map(Attempt::previousAttempts).toList());
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code());
    picker.servers.forEach(server -> assertEquals(0, server.active, server.name + ": every pick ended"));
  }

  @Test
  void withoutAPolicyFailoverTriesEachOtherServerAtOnceUpToItsRetries() {
    picker = new ScriptedPicker(2, "a", "b", "c", "d");
    unary(withoutPolicy(), IDEMPOTENT, CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(2, attempts.size(), "at once, no backoff");
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    attempts.get(2).fail(Status.Code.UNAVAILABLE, new Metadata());
    clock.advance(Duration.ofSeconds(10));
    assertEquals("a,b,c", servers(), "one attempt and two retries, each on another server");
    assertEquals(List.of(0, 1, 2), attempts.stream().map(Attempt::previousAttempts).toList());
    assertEquals(List.of("x"), attempts.get(2).sent);
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code());
  }

  @Test
  void failoverStopsWhenEveryServerWasTriedAndIgnoresOtherCodes() {
    picker = new ScriptedPicker(5, "a", "b");
    unary(withoutPolicy(), IDEMPOTENT, CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals("a,b", servers(), "never twice on one server");
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code());
    assertEquals(0, picker.servers.get(0).active, "the pick of a server tried before ended unused");

    Recorder other = new Recorder();
    ClientCall<StringValue, StringValue> call = withoutPolicy().newCall(IDEMPOTENT, CallOptions.DEFAULT);
    call.start(other, new Metadata());
    call.sendMessage(StringValue.of("y"));
    call.halfClose();
    attempts.get(2).fail(Status.Code.INTERNAL, new Metadata());
    assertEquals(Status.Code.INTERNAL, other.closed.code(), "only UNAVAILABLE fails over");
    assertEquals(3, attempts.size());
  }

  @Test
  void failoverNeverRepeatsACallThatIsNotIdempotentOrThatStreams() {
    picker = new ScriptedPicker(2, "a", "b", "c");
    unary(withoutPolicy(), UNARY, CallOptions.DEFAULT, "x");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(1, attempts.size());
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code());

    Recorder streaming = new Recorder();
    ClientCall<StringValue, StringValue> call = withoutPolicy().newCall(BIDI, CallOptions.DEFAULT);
    call.start(streaming, new Metadata());
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(2, attempts.size());
    assertEquals(Status.Code.UNAVAILABLE, streaming.closed.code());
  }

  @Test
  void hedgesGoToDifferentServersAndEachPickEndsOnce() {
    picker = new ScriptedPicker(2, "a", "b", "c");
    unary(hedged(), IDEMPOTENT, CallOptions.DEFAULT, "x");
    clock.advance(Duration.ofMillis(100));
    assertEquals("a,b,c", servers(), "three hedges, three servers; failover adds none");
    attempts.get(2).listener.onHeaders(new Metadata());
    assertEquals("Another hedged attempt answered first", attempts.get(0).cancelled);
    assertEquals("Another hedged attempt answered first", attempts.get(1).cancelled);
    attempts.get(2).listener.onClose(Status.OK, new Metadata());
    clock.advance(Duration.ofSeconds(1));
    assertEquals(3, attempts.size());
    assertEquals(List.of("headers", "close OK"), recorder.events);
    for (Server server : picker.servers) {
      assertEquals(0, server.active, server.name);
      assertEquals(1, server.ended.size(), server.name + " ended " + server.ended);
    }
  }

  // The transparent retry: once per call, at once, beside any policy, counted as no attempt.

  @Test
  void anAttemptTheServerNeverProcessedGoesAgainAtOnceAndCountsAsNoAttempt() {
    unary(calls(null, 1 << 20), CallOptions.DEFAULT, "x");
    attempts.get(0).listener.onUnprocessed(Status.UNAVAILABLE.withDescription("refused"));
    assertEquals(2, attempts.size(), "at once");
    assertEquals(0, attempts.get(1).previousAttempts(), "the same attempt, again");
    assertEquals(List.of("x"), attempts.get(1).sent);
    assertTrue(attempts.get(1).halfClosed);
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    clock.advance(Duration.ofMillis(100));
    attempts.get(2).listener.onUnprocessed(Status.UNAVAILABLE.withDescription("refused again"));
    assertEquals(3, attempts.size(), "only once per call: now an ordinary failure, retried after the backoff");
    clock.advance(Duration.ofMillis(150));
    assertEquals(4, attempts.size());
    assertEquals(List.of(0, 0, 1, 2), attempts.stream().map(Attempt::previousAttempts).toList());
    attempts.get(3).fail(Status.Code.UNAVAILABLE, new Metadata());
    clock.advance(Duration.ofSeconds(10));
    assertEquals(4, attempts.size(), "three attempts of the policy, and one transparent retry");
    assertEquals(Status.Code.UNAVAILABLE, recorder.closed.code());
  }

  @Test
  void withoutAPolicyTheTransparentRetryIsTheOnlyOne() {
    unary(withoutPolicy(), CallOptions.DEFAULT, "x");
    attempts.get(0).listener.onUnprocessed(Status.UNAVAILABLE.withDescription("refused"));
    attempts.get(1).listener.onUnprocessed(Status.UNAVAILABLE.withDescription("refused again"));
    assertEquals(2, attempts.size());
    assertEquals(List.of("close UNAVAILABLE"), recorder.events);
    assertEquals("refused again", recorder.closed.description());
  }

  @Test
  void anAnsweredOrCancelledCallIsNeverTransparentlyRetried() {
    ClientCall<StringValue, StringValue> call = unary(withoutPolicy(), CallOptions.DEFAULT, "x");
    call.cancel("user gave up", null);
    assertEquals(1, attempts.size());
    assertEquals("user gave up", attempts.get(0).cancelled);
    assertEquals(Status.Code.CANCELLED, recorder.closed.code());

    Recorder answered = new Recorder();
    ClientCall<StringValue, StringValue> streaming = withoutPolicy().newCall(BIDI, CallOptions.DEFAULT);
    streaming.start(answered, new Metadata());
    attempts.get(1).listener.onHeaders(new Metadata());
    attempts.get(1).listener.onUnprocessed(Status.UNAVAILABLE);
    assertEquals(2, attempts.size());
    assertEquals(List.of("headers", "close UNAVAILABLE"), answered.events);
  }

  // The replay buffer: its limits, and what it gives back.

  @Test
  void theRequestsKeptAreCountedAgainstTheClientAndGivenBackWhenTheCallCommits() {
    RetriableCalls calls = calls(null, 1 << 20);
    ClientCall<StringValue, StringValue> call = calls.newCall(BIDI, CallOptions.DEFAULT);
    call.start(recorder, new Metadata());
    call.sendMessage(StringValue.of("abc"));
    call.sendMessage(StringValue.of("de"));
    assertEquals(2 * 5 + 5 + 4, calls.budget().kept(), "both framed requests");
    attempts.get(0).listener.onHeaders(new Metadata());
    assertEquals(0, calls.budget().kept(), "an answer commits: nothing is kept");
    call.sendMessage(StringValue.of("f"));
    assertEquals(0, calls.budget().kept());
    attempts.get(0).listener.onClose(Status.OK, new Metadata());
    assertEquals(List.of("abc", "de", "f"), attempts.get(0).sent);
  }

  @Test
  void aCallPastTheClientsBufferStopsKeepingAndTheOthersStillRetry() {
    RetriableCalls calls = calls(Map.of("test.S", MethodConfig.EMPTY.withRetryPolicy(POLICY)), null, 1 << 20, 40);
    ClientCall<StringValue, StringValue> big = calls.newCall(BIDI, CallOptions.DEFAULT);
    big.start(new Recorder(), new Metadata());
    big.sendMessage(StringValue.of("twenty-five bytes long.."));
    assertEquals(31, calls.budget().kept());
    ClientCall<StringValue, StringValue> bigger = calls.newCall(BIDI, CallOptions.DEFAULT);
    Recorder biggerRecorder = new Recorder();
    bigger.start(biggerRecorder, new Metadata());
    bigger.sendMessage(StringValue.of("twenty-five bytes long.."));
    assertEquals(31, calls.budget().kept(), "the second would pass 40: it keeps nothing");
    attempts.get(1).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertEquals(Status.Code.UNAVAILABLE, biggerRecorder.closed.code(), "and cannot go again");
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    clock.advance(Duration.ofMillis(100));
    assertEquals(List.of("twenty-five bytes long.."), attempts.get(2).sent, "the first replays");
    attempts.get(2).listener.onHeaders(new Metadata());
    assertEquals(0, calls.budget().kept());
  }

  @Test
  void aCancelDuringTheBackoffGivesTheBufferBack() {
    RetriableCalls calls = calls(null, 1 << 20);
    ClientCall<StringValue, StringValue> call = calls.newCall(BIDI, CallOptions.DEFAULT);
    call.start(recorder, new Metadata());
    call.sendMessage(StringValue.of("abc"));
    attempts.get(0).fail(Status.Code.UNAVAILABLE, new Metadata());
    assertTrue(calls.budget().kept() > 0);
    call.cancel("enough", null);
    assertEquals(0, calls.budget().kept());
    assertEquals(List.of("close CANCELLED"), recorder.events);
  }

  // Waiting for the picker's first servers.

  @Test
  void aCallMadeBeforeTheServersAreKnownWaitsAndSendsWhatItWasGiven() {
    picker = new ScriptedPicker(0, "a");
    picker.ready = false;
    unary(withoutPolicy(), CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)), "x");
    assertEquals(0, attempts.size(), "waiting, without holding the caller");
    clock.advance(Duration.ofSeconds(1));
    picker.becomeReady();
    assertEquals(1, attempts.size());
    assertEquals(List.of("x"), attempts.get(0).sent);
    assertTrue(attempts.get(0).halfClosed);
    assertEquals(Duration.ofSeconds(9).toNanos(), attempts.get(0).options.timeoutNanos(), "what is left of the deadline");
    clock.advance(Duration.ofSeconds(5));
    assertEquals(1, attempts.size(), "the wait's timer made no second attempt");
  }

  @Test
  void theWaitForServersEndsAtTheDeadlineOrTheWaitsLimit() {
    picker = new ScriptedPicker(0, "a");
    picker.ready = false;
    unary(withoutPolicy(), CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(1)), "x");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, recorder.closed.code());
    assertEquals("Deadline exceeded while waiting for the first instances of test.S", recorder.closed.description());

    picker = new ScriptedPicker(0);
    picker.ready = false;
    Recorder unbounded = new Recorder();
    ClientCall<StringValue, StringValue> call = withoutPolicy().newCall(UNARY, CallOptions.DEFAULT);
    call.start(unbounded, new Metadata());
    clock.advance(Duration.ofSeconds(3));
    assertEquals(Status.Code.UNAVAILABLE, unbounded.closed.code(), "no server after the picker's wait");
    assertEquals("No instance of test.S is registered", unbounded.closed.description());
    assertEquals(0, attempts.size());
  }

  @Test
  void aCallWhoseAttemptBeganLateSaysWhichDeadlinePassed() {
    picker = new ScriptedPicker(0, "a");
    picker.ready = false;
    unary(withoutPolicy(), CallOptions.DEFAULT.withTimeout(Duration.ofMillis(1500)), "x");
    clock.advance(Duration.ofMillis(1400));
    picker.becomeReady();
    assertEquals(Duration.ofMillis(100).toNanos(), attempts.get(0).options.timeoutNanos(), "what is left");
    // The attempt's own timer names its 100 ms (ClientCallImpl's words); the caller set 1500 and waited them.
    attempts.get(0).listener.onClose(Status.DEADLINE_EXCEEDED.withDescription("Deadline exceeded after 100 ms"),
        new Metadata());
    assertEquals(Status.Code.DEADLINE_EXCEEDED, recorder.closed.code());
    assertEquals("Deadline exceeded after 1500 ms; the last attempt began 1400 ms into it (Deadline exceeded after 100 ms)",
        recorder.closed.description());

    Recorder atOnce = new Recorder();
    ClientCall<StringValue, StringValue> call =
        withoutPolicy().newCall(UNARY, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(1500)));
    call.start(atOnce, new Metadata());
    call.sendMessage(StringValue.of("y"));
    call.halfClose();
    attempts.get(1).listener.onClose(Status.DEADLINE_EXCEEDED.withDescription("Deadline exceeded after 1500 ms"),
        new Metadata());
    assertEquals("Deadline exceeded after 1500 ms", atOnce.closed.description(), "an attempt made at once says it right");
  }

  @Test
  void aCancelWhileWaitingForServersEndsTheCallAndNoAttemptFollows() {
    picker = new ScriptedPicker(0, "a");
    picker.ready = false;
    ClientCall<StringValue, StringValue> call = unary(withoutPolicy(), CallOptions.DEFAULT, "x");
    call.cancel("not now", null);
    assertEquals(List.of("close CANCELLED"), recorder.events);
    picker.becomeReady();
    clock.advance(Duration.ofSeconds(5));
    assertEquals(0, attempts.size());
  }
}
