package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The retry design of gRPC's A6 on a controllable clock, against attempts the test plays: backoff (with the
 * jitter fixed at its top), attempts, retryable codes, commitment, pushback, throttling, the deadline,
 * cancellation while waiting, replay of what a stream sent, and the retry buffer.
 */
class RetryingCallsTest {

  private static final MethodDescriptor<StringValue, StringValue> UNARY = MethodDescriptor.of("test.S", "u",
      MethodType.UNARY, Serializations.codecFor(StringValue.class), Serializations.codecFor(StringValue.class), false);
  private static final MethodDescriptor<StringValue, StringValue> BIDI = MethodDescriptor.of("test.S", "b",
      MethodType.BIDI_STREAMING, Serializations.codecFor(StringValue.class), Serializations.codecFor(StringValue.class),
      false);
  private static final RetryPolicy POLICY = RetryPolicy.builder().maxAttempts(3)
      .initialBackoff(Duration.ofMillis(100)).maxBackoff(Duration.ofMillis(150)).backoffMultiplier(2)
      .retryableStatusCodes(Status.Code.UNAVAILABLE).build();

  private final ManualClock clock = new ManualClock();
  private final List<Attempt> attempts = new ArrayList<>();
  private final Recorder recorder = new Recorder();

  @AfterEach
  void stop() {
    clock.close();
  }

  /** One attempt the delegate made: what it was started and sent with; the test ends it. */
  private static final class Attempt extends ClientCall<StringValue, StringValue> {
    final CallOptions options;
    Listener<StringValue> listener;
    Metadata headers;
    final List<String> sent = new ArrayList<>();
    boolean halfClosed;
    String cancelled;

    Attempt(CallOptions options) {
      this.options = options;
    }

    @Override
    public void start(Listener<StringValue> listener, Metadata headers) {
      this.listener = listener;
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
    public void sendMessage(StringValue message) {
      sent.add(message.getValue());
    }

    void fail(Status.Code code, Metadata trailers) {
      listener.onClose(Status.fromCodeValue(code.value()), trailers);
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
      events.add("close " + status.code());
      closed = status;
    }
  }

  private ClientCallFactory delegate() {
    return new ClientCallFactory() {
      @Override
      @SuppressWarnings("unchecked")
      public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        Attempt attempt = new Attempt(options);
        attempts.add(attempt);
        return (ClientCall<Q, R>) attempt;
      }
    };
  }

  private RetryingCalls calls(RetryingCalls.Throttle throttle, long perCallBuffer) {
    return new RetryingCalls(delegate(), Map.of("test.S", MethodConfig.EMPTY.withRetryPolicy(POLICY)), throttle,
        clock.scheduler(), clock::nanoTime, () -> 1.0, perCallBuffer, 1 << 20);
  }

  private ClientCall<StringValue, StringValue> unary(RetryingCalls calls, CallOptions options, String request) {
    ClientCall<StringValue, StringValue> call = calls.newCall(UNARY, options);
    call.start(recorder, new Metadata());
    call.request(2);
    call.sendMessage(StringValue.of(request));
    call.halfClose();
    return call;
  }

  private static Metadata pushback(String millis) {
    return new Metadata().put(RetryingCalls.PUSHBACK, millis);
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
    assertEquals("1", second.headers.get(RetryingCalls.PREVIOUS_ATTEMPTS));
    assertNull(attempts.get(0).headers.get(RetryingCalls.PREVIOUS_ATTEMPTS));
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
    assertEquals("2", attempts.get(2).headers.get(RetryingCalls.PREVIOUS_ATTEMPTS));
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
    RetryingCalls.Throttle throttle = new RetryingCalls.Throttle(4, 1);
    RetryingCalls calls = calls(throttle, 1 << 20);
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
    RetryingCalls calls = new RetryingCalls(delegate(), Map.of("test.S", MethodConfig.EMPTY.withRetryPolicy(POLICY),
        "test.S/u", new MethodConfig(null, null, Duration.ofSeconds(1).toNanos())), null, clock.scheduler(),
        clock::nanoTime, () -> 1.0, 1 << 20, 1 << 20);
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

  private static final HedgingPolicy HEDGING = HedgingPolicy.builder().maxAttempts(3)
      .hedgingDelay(Duration.ofMillis(50)).nonFatalStatusCodes(Status.Code.UNAVAILABLE).build();

  private RetryingCalls hedged() {
    return new RetryingCalls(delegate(), Map.of("test.S", MethodConfig.EMPTY.withHedgingPolicy(HEDGING)), null,
        clock.scheduler(), clock::nanoTime, () -> 1.0, 1 << 20, 1 << 20);
  }

  @Test
  void hedgesGoOutADelayApartAndTheFirstAnswerWinsTheOthersCancelled() {
    unary(hedged(), CallOptions.DEFAULT, "x");
    assertEquals(1, attempts.size());
    clock.advance(Duration.ofMillis(50));
    assertEquals(2, attempts.size());
    assertEquals("1", attempts.get(1).headers.get(RetryingCalls.PREVIOUS_ATTEMPTS));
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
}
