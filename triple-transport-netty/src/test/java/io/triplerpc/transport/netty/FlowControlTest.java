package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleService;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FlowControlTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  private static final int MESSAGE_SIZE = 64 * 1024;
  private static final int TOTAL = 200;

  @TripleService(name = "triple.test.Firehose")
  public interface Firehose {
    void stream(EchoRequest request, StreamObserver<EchoResponse> responses);
  }

  /** Sends only while the stream is ready, as a well-behaved streaming service does. */
  static final class ReadinessAwareFirehose implements Firehose {
    final AtomicInteger sentBeforeFirstStall = new AtomicInteger(-1);
    final CountDownLatch stalled = new CountDownLatch(1);

    @Override
    public void stream(EchoRequest request, StreamObserver<EchoResponse> responses) {
      ServerCallStreamObserver<EchoResponse> observer = (ServerCallStreamObserver<EchoResponse>) responses;
      ByteString payload = ByteString.copyFrom(new byte[MESSAGE_SIZE]);
      int[] sent = {0};
      Runnable pump = () -> {
        while (observer.isReady() && sent[0] < TOTAL) {
          observer.onNext(EchoResponse.newBuilder().setIndex(sent[0]++).setPayload(payload).build());
        }
        if (sent[0] == TOTAL) {
          observer.onCompleted();
          sent[0]++;
        } else if (sent[0] < TOTAL && sentBeforeFirstStall.compareAndSet(-1, sent[0])) {
          stalled.countDown();
        }
      };
      observer.setOnReadyHandler(pump);
      pump.run();
    }
  }

  @Test
  void slowReaderIsNotBufferedWithoutBound() throws Exception {
    ReadinessAwareFirehose firehose = new ReadinessAwareFirehose();
    fixture.startServer(b -> b.addService(Firehose.class, firehose));
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger received = new AtomicInteger();
    RecordingObserver<EchoResponse> done = new RecordingObserver<>() {
      @Override
      public void onNext(EchoResponse value) {
        try {
          // The reader is stuck on its first message until the test has seen the sender stall.
          release.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        received.incrementAndGet();
      }
    };
    fixture.client().proxy(Firehose.class).stream(EchoRequest.getDefaultInstance(), done);

    assertTrue(firehose.stalled.await(20, TimeUnit.SECONDS), "sender never saw backpressure");
    int inFlight = firehose.sentBeforeFirstStall.get();
    // Client stream window (1 MiB) plus the server's 32 KiB ready threshold and the socket buffers:
    // a bounded handful of 64 KiB messages, far from all 200.
    assertTrue(inFlight < 80, "sender got " + inFlight + " messages out while the reader was stuck");

    release.countDown();
    done.awaitCompletion();
    assertNull(done.error());
    assertEquals(TOTAL, received.get());
  }
}
