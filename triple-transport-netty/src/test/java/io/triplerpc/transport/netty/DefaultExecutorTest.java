package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server's own pool runs few threads while services keep finishing, but a service that blocks
 * never holds up the calls queued behind it: blocked workers are replaced.
 */
class DefaultExecutorTest {

  private static final int CALLS = 16;

  private final BlockingEcho service = new BlockingEcho();

  @RegisterExtension
  final EchoFixture fixture = new EchoFixture(service);

  @Test
  void callsThatEachWaitForAllTheOthersToStartAllFinish() throws Exception {
    fixture.startServer(b -> b);
    List<CompletableFuture<EchoResponse>> calls = new ArrayList<>();
    for (int i = 0; i < CALLS; i++) {
      calls.add(fixture.echo().echoAsync(EchoRequest.newBuilder().setMessage("together " + i).build()));
    }
    for (int i = 0; i < CALLS; i++) {
      EchoResponse response = calls.get(i).get(30, TimeUnit.SECONDS);
      assertEquals("together " + i, response.getMessage());
      assertTrue(response.getDetail().startsWith("triple-service-"), response.getDetail());
    }
  }

  @Test
  void aServiceThatCallsItsOwnServerAndWaitsFinishes() throws Exception {
    fixture.startServer(b -> b);
    service.self.set(fixture.newClient(b -> b).proxy(EchoService.class));
    EchoResponse response = fixture.echo().echo(EchoRequest.newBuilder().setMessage("outer").build());
    assertEquals("outer", response.getMessage());
    assertEquals("inner", response.getDetail());
  }

  /** echoAsync waits until {@link #CALLS} calls have started; echo of "outer" calls echo of "inner". */
  static final class BlockingEcho extends EchoServiceImpl {
    final CountDownLatch started = new CountDownLatch(CALLS);
    final AtomicReference<EchoService> self = new AtomicReference<>();

    @Override
    public CompletableFuture<EchoResponse> echoAsync(EchoRequest request) {
      started.countDown();
      try {
        if (!started.await(30, TimeUnit.SECONDS)) {
          throw Status.DEADLINE_EXCEEDED.withDescription("only " + (CALLS - started.getCount()) + " calls started")
              .asException();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw Status.CANCELLED.asException();
      }
      return CompletableFuture.completedFuture(EchoResponse.newBuilder().setMessage(request.getMessage())
          .setDetail(Thread.currentThread().getName()).build());
    }

    @Override
    public EchoResponse echo(EchoRequest request) {
      if (!"outer".equals(request.getMessage())) {
        return super.echo(request);
      }
      EchoResponse inner = self.get().echo(EchoRequest.newBuilder().setMessage("inner").build());
      return EchoResponse.newBuilder().setMessage("outer").setDetail(inner.getMessage()).build();
    }
  }
}
