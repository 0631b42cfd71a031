package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.StreamObserver;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** With {@code directExecutor()}, services run on the server's event loop, and every call type works. */
class DirectExecutorTest {

  @RegisterExtension
  final EchoFixture fixture = new EchoFixture();

  @Test
  void servicesRunOnTheEventLoopAndEveryCallTypeWorks() throws Exception {
    fixture.startServer(b -> b.directExecutor());
    EchoResponse unary = fixture.echo().echo(EchoRequest.newBuilder().setMessage("direct").build());
    assertEquals("direct", unary.getMessage());
    assertTrue(unary.getDetail().startsWith("triple-server-io"), unary.getDetail());

    RecordingObserver<EchoResponse> streamed = new RecordingObserver<>();
    fixture.echo().serverStream(EchoRequest.newBuilder().setMessage("s").setCount(300).build(), streamed);
    streamed.awaitCompletion();
    List<EchoResponse> responses = streamed.values();
    assertEquals(null, streamed.error());
    assertEquals(300, responses.size());
    assertEquals(299, responses.get(299).getIndex());

    RecordingObserver<EchoResponse> summed = new RecordingObserver<>();
    StreamObserver<EchoRequest> uploads = fixture.echo().clientStream(summed);
    for (int i = 0; i < 50; i++) {
      uploads.onNext(EchoRequest.newBuilder().setMessage("u").build());
    }
    uploads.onCompleted();
    summed.awaitCompletion();
    assertEquals(1, summed.values().size());

    RecordingObserver<EchoResponse> chat = new RecordingObserver<>();
    StreamObserver<EchoRequest> said = fixture.echo().bidi(chat);
    for (int i = 0; i < 20; i++) {
      said.onNext(EchoRequest.newBuilder().setMessage("b" + i).build());
    }
    said.onCompleted();
    chat.awaitCompletion();
    assertEquals(20, chat.values().size());

    CompletableFuture<EchoResponse> later = fixture.echo().echoAsync(EchoRequest.newBuilder().setMessage("a").build());
    assertEquals("a", later.get(10, TimeUnit.SECONDS).getMessage());
  }
}
