package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.ForwardingServerCall;
import io.triplerpc.Metadata;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A unary response's headers and message wait in the server stream for the close, to leave with the
 * trailers as one command. Whatever happens in between (the client cancelling, a close that comes
 * late or after the cancel) the server stays right and no buffer is lost; the leak detector
 * (PARANOID) fails the test otherwise.
 */
class SingleResponseTest {

  @RegisterExtension
  final EchoFixture fixture = new EchoFixture();

  /** Holds back the close of the first call until released, and reports when the handler asked for it. */
  private static final class DelayedClose implements ServerInterceptor {
    final CountDownLatch closeAsked = new CountDownLatch(1);
    final CompletableFuture<Runnable> pendingClose = new CompletableFuture<>();
    private final AtomicBoolean first = new AtomicBoolean(true);

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      if (!first.getAndSet(false)) {
        return next.startCall(call, headers);
      }
      return next.startCall(new ForwardingServerCall<>(call) {
        @Override
        public void close(Status status, Metadata trailers) {
          pendingClose.complete(() -> super.close(status, trailers));
          closeAsked.countDown();
        }
      }, headers);
    }
  }

  @Test
  void aClientResetBetweenMessageAndCloseReleasesTheHeldMessage() throws Exception {
    DelayedClose delayed = new DelayedClose();
    fixture.startServer(b -> b.intercept(delayed));
    CompletableFuture<EchoResponse> call = fixture.echo().echoAsync(EchoRequest.newBuilder().setMessage("held").build());
    assertTrue(delayed.closeAsked.await(10, TimeUnit.SECONDS), "handler never closed");
    call.cancel(true);
    // The close the handler asked for arrives after the reset: harmless, nothing leaks.
    delayed.pendingClose.get(10, TimeUnit.SECONDS).run();
    assertTrue(call.isCancelled());
    // The server keeps serving on the same connection.
    EchoService withDeadline = fixture.client().proxy(EchoService.class,
        io.triplerpc.CallOptions.DEFAULT.withTimeout(java.time.Duration.ofSeconds(10)));
    assertEquals("after", withDeadline.echo(EchoRequest.newBuilder().setMessage("after").build()).getMessage());
  }

  @Test
  void aClientResetReleasesTheHeldMessageOfACallThatNeverCloses() throws Exception {
    DelayedClose delayed = new DelayedClose();
    fixture.startServer(b -> b.intercept(delayed));
    CompletableFuture<EchoResponse> call = fixture.echo().echoAsync(EchoRequest.newBuilder().setMessage("held").build());
    assertTrue(delayed.closeAsked.await(10, TimeUnit.SECONDS), "handler never closed");
    call.cancel(true);
    // No close ever: only the reset, seen on the event loop, can release the message (else: a leak).
    EchoService withDeadline = fixture.client().proxy(EchoService.class,
        io.triplerpc.CallOptions.DEFAULT.withTimeout(java.time.Duration.ofSeconds(10)));
    assertEquals("after", withDeadline.echo(EchoRequest.newBuilder().setMessage("after").build()).getMessage());
  }

  @Test
  void aCloseThatNeverComesIsEndedByTheDeadlineWithoutLosingTheMessage() throws Exception {
    DelayedClose delayed = new DelayedClose();
    fixture.startServer(b -> b.intercept(delayed));
    EchoService echo = fixture.client().proxy(EchoService.class,
        io.triplerpc.CallOptions.DEFAULT.withTimeout(java.time.Duration.ofMillis(300)));
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> echo.echoAsync(EchoRequest.newBuilder().setMessage("late").build()).get(10, TimeUnit.SECONDS));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, ((StatusException) e.getCause()).status().code());
    assertTrue(delayed.closeAsked.await(10, TimeUnit.SECONDS));
  }
}
