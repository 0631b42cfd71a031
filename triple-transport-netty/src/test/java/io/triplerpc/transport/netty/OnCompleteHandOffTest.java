package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ForwardingServerCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerContext;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A unary call costs one hand-off to the service's executor, unless something down its listener chain
 * listens to onComplete: forwarding listeners that leave it alone (as tracing's does) keep it at one.
 * Counted on the server's executor, after the server terminated (every hand-off was made by then).
 */
class OnCompleteHandOffTest {

  private static final int CALLS = 20;

  @RegisterExtension
  final EchoFixture fixture = new EchoFixture();

  private final AtomicInteger handOffs = new AtomicInteger();
  private static final ThreadLocal<Boolean> POOL_THREAD = ThreadLocal.withInitial(() -> false);
  private final ExecutorService pool = Executors.newCachedThreadPool(task -> new Thread(() -> {
    POOL_THREAD.set(true);
    task.run();
  }));

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdown();
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
  }

  private void serveAndCall(ServerInterceptor interceptor) throws InterruptedException {
    TripleServer server = fixture.startServer(b -> b.intercept(interceptor).executor(task -> {
      handOffs.incrementAndGet();
      pool.execute(task);
    }));
    for (int i = 0; i < CALLS; i++) {
      fixture.echo().echo(EchoRequest.newBuilder().setMessage("m" + i).build());
    }
    fixture.client().close();
    server.shutdown();
    assertTrue(server.awaitTermination(Duration.ofSeconds(10)));
  }

  @Test
  void forwardingListenersThatLeaveOnCompleteAloneCostNoHandOff() throws InterruptedException {
    List<Status> ends = new CopyOnWriteArrayList<>();
    CountDownLatch allEnded = new CountDownLatch(CALLS);
    serveAndCall(new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        ServerContext.current().addEndListener(status -> {
          ends.add(status);
          allEnded.countDown();
        });
        return new ForwardingServerCallListener<>(new ForwardingServerCallListener<>(next.startCall(call, headers)) {
          @Override
          public void onHalfClose() {
            super.onHalfClose();
          }
        });
      }
    });
    assertTrue(allEnded.await(10, TimeUnit.SECONDS));
    assertEquals(CALLS, handOffs.get());
    assertEquals(CALLS, ends.size());
    assertTrue(ends.stream().allMatch(Status::isOk), ends::toString);
  }

  @Test
  void aListenerOfOnCompleteIsCalledOnTheServiceExecutor() throws InterruptedException {
    CountDownLatch completed = new CountDownLatch(CALLS);
    List<Boolean> onPool = new CopyOnWriteArrayList<>();
    serveAndCall(new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        return new ForwardingServerCallListener<>(next.startCall(call, headers)) {
          @Override
          public void onComplete() {
            onPool.add(POOL_THREAD.get());
            completed.countDown();
            super.onComplete();
          }
        };
      }
    });
    assertTrue(completed.await(10, TimeUnit.SECONDS));
    assertEquals(CALLS, onPool.stream().filter(b -> b).count());
    // Each onComplete is handed to the executor, unless the call's earlier task is still running there.
    assertTrue(handOffs.get() >= CALLS, "hand-offs: " + handOffs.get());
  }

  @Test
  void endListenersHearTheFinalStatus() throws Exception {
    List<Status> ends = new CopyOnWriteArrayList<>();
    CountDownLatch ended = new CountDownLatch(2);
    fixture.startServer(b -> b.intercept(new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        ServerContext.current().addEndListener(status -> {
          ends.add(status);
          ended.countDown();
        });
        return next.startCall(call, headers);
      }
    }));
    StatusException failed = assertThrows(StatusException.class,
        () -> fixture.echo().echo(EchoRequest.newBuilder()
            .setFailCode(Status.Code.FAILED_PRECONDITION.value()).setMessage("not now").build()));
    assertEquals(Status.Code.FAILED_PRECONDITION, failed.status().code());
    EchoService impatient = fixture.client().proxy(EchoService.class,
        CallOptions.DEFAULT.withTimeout(Duration.ofMillis(50)));
    assertThrows(StatusException.class,
        () -> impatient.echo(EchoRequest.newBuilder().setDelayMillis(10_000).build()));
    assertTrue(ended.await(10, TimeUnit.SECONDS));
    assertEquals(Status.Code.FAILED_PRECONDITION, ends.get(0).code());
    assertEquals("not now", ends.get(0).description());
    // The server's own timer (from grpc-timeout) and the client's cancel at its deadline race: on a loaded
    // machine the client's RST_STREAM has come first. Either way the listener hears how the call ended.
    assertTrue(ends.get(1).code() == Status.Code.DEADLINE_EXCEEDED || ends.get(1).code() == Status.Code.CANCELLED,
        ends.get(1).toString());
  }
}
