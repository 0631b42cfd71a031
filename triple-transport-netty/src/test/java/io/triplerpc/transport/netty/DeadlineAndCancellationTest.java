package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCallStreamObserver;
import io.triplerpc.ClientResponseObserver;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DeadlineAndCancellationTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  private static final EchoRequest SLOW = EchoRequest.newBuilder().setDelayMillis(30_000).build();

  @Test
  void blockingCallPastItsDeadlineFailsWithDeadlineExceededAndTheServerSeesIt() throws Exception {
    EchoService echo = fixture.client().proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(300)));
    StatusException e = assertThrows(StatusException.class, () -> echo.echo(SLOW));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.status().code());
    assertTrue(fixture.service.cancellationSeen.await(10, TimeUnit.SECONDS), "server-side call saw no cancellation");
    // The connection keeps serving.
    assertEquals("after", echo.echo(EchoRequest.newBuilder().setMessage("after").build()).getMessage());
  }

  @Test
  void deadlinesShorterThanStartingTheCallStillEndEveryCall() throws Exception {
    // Regression: a deadline that fired before the stream started left the call open forever.
    // 300 calls opened and reset at once are a rapid reset on the wire: past the default 200 RST_STREAM
    // per 30 s the server would end the connection, so this server allows more.
    fixture.startServer(b -> b.maxRstFramesPerWindow(1_000, Duration.ofSeconds(30)));
    EchoService echo = fixture.client().proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofNanos(1_000)));
    for (int i = 0; i < 300; i++) {
      RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
      StreamObserver<EchoRequest> requests = echo.bidi(responses);
      try {
        requests.onNext(EchoRequest.newBuilder().setMessage("late").build());
        requests.onCompleted();
      } catch (RuntimeException e) {
        // The call may already be over; how it ended is what counts.
      }
      responses.awaitCompletion();
      if (responses.error() != null) {
        assertEquals(Status.Code.DEADLINE_EXCEEDED, ((StatusException) responses.error()).status().code());
      }
    }
  }

  @Test
  void serverSeesTheRemainingTimeOfTheDeadline() {
    fixture.startServer(b -> b.addService(StatusTest.Thrower.class, request -> EchoResponse.newBuilder()
        .setIndex((int) TimeUnit.NANOSECONDS.toMillis(io.triplerpc.ServerContext.current().remainingNanos())).build()));
    int remainingMillis = fixture.client()
        .proxy(StatusTest.Thrower.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(20)))
        .call(EchoRequest.getDefaultInstance()).getIndex();
    assertTrue(remainingMillis > 0 && remainingMillis <= 20_000, "remaining " + remainingMillis);
  }

  @Test
  void asyncCallPastItsDeadlineFailsWithDeadlineExceeded() {
    EchoService echo = fixture.client().proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(200)));
    ExecutionException e = assertThrows(ExecutionException.class, () -> echo.echoAsync(SLOW).get(10, TimeUnit.SECONDS));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, ((StatusException) e.getCause()).status().code());
  }

  @Test
  void cancellingTheFutureCancelsTheCallOnTheServer() throws Exception {
    CompletableFuture<EchoResponse> future = fixture.echo().echoAsync(EchoRequest.newBuilder().setDelayMillis(30_000).build());
    assertTrue(fixture.service.waiting.await(10, TimeUnit.SECONDS));
    future.cancel(true);
    assertTrue(fixture.service.cancellationSeen.await(10, TimeUnit.SECONDS), "server-side call saw no cancellation");
  }

  /** A plain Java method's future is its call's, decoded: its cancel must still reach the call. */
  @Test
  void cancellingTheFutureOfAPlainJavaMethodCancelsTheCallOnTheServer() throws Exception {
    CountDownLatch arrived = new CountDownLatch(1);
    CompletableFuture<Status> ended = new CompletableFuture<>();
    HeldPlain held = request -> {
      io.triplerpc.ServerContext.current().addEndListener(ended::complete);
      arrived.countDown();
      return new CompletableFuture<>();
    };
    fixture.startServer(b -> b.addService(HeldPlain.class, held));
    CompletableFuture<String> future = fixture.client().proxy(HeldPlain.class).hold("wait");
    assertTrue(arrived.await(10, TimeUnit.SECONDS));
    assertTrue(future.cancel(true));
    assertEquals(Status.Code.CANCELLED, ended.get(10, TimeUnit.SECONDS).code(), "how the server-side call ended");
  }

  /** A plain Java service (hessian), whose calls never answer. */
  @io.triplerpc.TripleService(name = "triple.test.HeldPlain")
  public interface HeldPlain {
    CompletableFuture<String> hold(String request);
  }

  @Test
  void cancellingAServerStreamAfterTheFirstResponseStopsTheServer() throws Exception {
    CountDownLatch closed = new CountDownLatch(1);
    Throwable[] error = new Throwable[1];
    ClientResponseObserver<EchoRequest, EchoResponse> responses = new ClientResponseObserver<>() {
      private ClientCallStreamObserver<EchoRequest> requestStream;

      @Override
      public void beforeStart(ClientCallStreamObserver<EchoRequest> requestStream) {
        this.requestStream = requestStream;
      }

      @Override
      public void onNext(EchoResponse value) {
        requestStream.cancel("enough", null);
      }

      @Override
      public void onError(Throwable t) {
        error[0] = t;
        closed.countDown();
      }

      @Override
      public void onCompleted() {
        closed.countDown();
      }
    };
    fixture.echo().serverStream(EchoRequest.newBuilder().setCount(100_000).setDelayMillis(1).build(), responses);
    assertTrue(closed.await(10, TimeUnit.SECONDS));
    StatusException e = assertInstanceOf(StatusException.class, error[0]);
    assertEquals(Status.Code.CANCELLED, e.status().code());
    assertEquals("enough", e.status().description());
    assertTrue(fixture.service.cancellationSeen.await(10, TimeUnit.SECONDS), "server kept streaming");
  }

  @Test
  void cancellingABidiStreamNotifiesTheServiceRequestObserver() throws Exception {
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    ClientCallStreamObserver<EchoRequest> requests =
        (ClientCallStreamObserver<EchoRequest>) fixture.echo().bidi(responses);
    requests.onNext(EchoRequest.newBuilder().setMessage("one").build());
    assertEquals("one", responses.awaitValue(0).getMessage());
    requests.cancel("bye", null);
    responses.awaitCompletion();
    assertEquals(Status.Code.CANCELLED, ((StatusException) responses.error()).status().code());
    assertTrue(fixture.service.cancellationSeen.await(10, TimeUnit.SECONDS));
  }

  @Test
  void anErrorFromTheClientRequestObserverCancelsTheCall() throws Exception {
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    StreamObserver<EchoRequest> requests = fixture.echo().clientStream(responses);
    requests.onNext(EchoRequest.newBuilder().setMessage("a").build());
    requests.onError(new IllegalStateException("client gave up"));
    responses.awaitCompletion();
    assertEquals(Status.Code.CANCELLED, ((StatusException) responses.error()).status().code());
    assertTrue(fixture.service.cancellationSeen.await(10, TimeUnit.SECONDS));
  }

  @Test
  void interruptingABlockedCallerCancelsItsCall() throws Exception {
    Thread caller = Thread.currentThread();
    CompletableFuture<Void> interrupter = CompletableFuture.runAsync(() -> {
      try {
        fixture.service.waiting.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      caller.interrupt();
    });
    StatusException e = assertThrows(StatusException.class, () -> fixture.echo().echo(SLOW));
    assertEquals(Status.Code.CANCELLED, e.status().code());
    assertTrue(Thread.interrupted(), "interrupt flag is kept");
    interrupter.get(10, TimeUnit.SECONDS);
    assertTrue(fixture.service.cancellationSeen.await(10, TimeUnit.SECONDS));
  }
}
