package io.triplerpc.transport.netty.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallObserver;
import io.triplerpc.CallOptions;
import io.triplerpc.ObservedCall;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.Signal;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link CallObserver}s see of real calls over loopback: a client's call and its attempts, a
 * server's calls (served, unknown, failed, timed out, refused), their statuses, protocols and message
 * sizes, which must agree between the two sides.
 */
class CallObserverTest {

  /** Keeps what it is told, in order, and fires {@link #told} after each. */
  static final class Recorder implements CallObserver {
    final List<ObservedCall> started = Collections.synchronizedList(new ArrayList<>());
    final List<ObservedCall> ended = Collections.synchronizedList(new ArrayList<>());
    final Signal told = new Signal();

    @Override
    public void started(ObservedCall call) {
      assertNull(call.status(), "not ended yet");
      started.add(call);
      told.fire();
    }

    @Override
    public void ended(ObservedCall call) {
      assertNotNull(call.status());
      ended.add(call);
      told.fire();
    }

    List<ObservedCall> ended(ObservedCall.Kind kind) {
      synchronized (ended) {
        return ended.stream().filter(c -> c.kind() == kind).toList();
      }
    }

    ObservedCall awaitOne(ObservedCall.Kind kind) throws InterruptedException {
      told.await(() -> ended(kind).size() == 1, "one " + kind + " ended");
      return ended(kind).get(0);
    }
  }

  private final Recorder onServer = new Recorder();
  private final Recorder onClient = new Recorder();
  private TripleServer server;
  private TripleClient client;

  private EchoService start(TripleServer.Builder serverBuilder, TripleClient.Builder clientBuilder) {
    server = serverBuilder.host("127.0.0.1").port(0).addService(EchoService.class, new EchoServiceImpl())
        .callObserver(onServer).build().start();
    client = clientBuilder.address("127.0.0.1", server.port()).callObserver(onClient).build();
    return client.proxy(EchoService.class);
  }

  private EchoService start() {
    return start(TripleServer.builder(), TripleClient.builder());
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void aUnaryCallIsOneCallOneAttemptAndOneServerCallWhoseSizesAgree() throws Exception {
    EchoService echo = start();
    assertEquals("hello", echo.echo(EchoRequest.newBuilder().setMessage("hello").build()).getMessage());

    ObservedCall call = onClient.awaitOne(ObservedCall.Kind.CLIENT_CALL);
    ObservedCall attempt = onClient.awaitOne(ObservedCall.Kind.CLIENT_ATTEMPT);
    ObservedCall served = onServer.awaitOne(ObservedCall.Kind.SERVER_CALL);
    for (ObservedCall c : List.of(call, attempt, served)) {
      assertEquals("triple.test.EchoService/echo", c.method());
      assertTrue(c.knownMethod());
      assertEquals(Status.Code.OK, c.status().code());
      assertTrue(c.durationNanos() > 0);
    }
    assertEquals("127.0.0.1:" + server.port(), call.target());
    assertEquals("127.0.0.1:" + server.port(), attempt.target());
    InetSocketAddress peer = (InetSocketAddress) attempt.peer();
    assertEquals("127.0.0.1", peer.getHostString());
    assertEquals(server.port(), peer.getPort());
    assertEquals(0, attempt.previousAttempts());
    assertEquals("grpc", served.protocol());
    assertNull(served.target());
    assertNotNull(served.peer());
    assertTrue(call.durationNanos() >= attempt.durationNanos(), "the call spans its attempt");

    assertEquals(1, attempt.messagesSent());
    assertEquals(1, attempt.messagesReceived());
    assertEquals(1, served.messagesReceived());
    assertEquals(1, served.messagesSent());
    assertEquals(EchoRequest.newBuilder().setMessage("hello").build().getSerializedSize(), attempt.messageBytesSent());
    assertEquals(attempt.messageBytesSent(), served.messageBytesReceived());
    assertEquals(served.messageBytesSent(), attempt.messageBytesReceived());
    assertTrue(served.messageBytesSent() > 0);
    assertEquals(0, call.messagesSent(), "a call's messages are its attempts'");
    assertEquals(onClient.started.size(), 2);
    assertEquals(onServer.started.size(), 1);
  }

  @Test
  void aServerStreamCountsEveryMessage() throws Exception {
    EchoService echo = start();
    CompletableFuture<Void> done = new CompletableFuture<>();
    AtomicInteger received = new AtomicInteger();
    echo.serverStream(EchoRequest.newBuilder().setMessage("m").setCount(7).build(), new StreamObserver<>() {
      @Override
      public void onNext(EchoResponse value) {
        received.incrementAndGet();
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        done.complete(null);
      }
    });
    done.get(10, TimeUnit.SECONDS);
    ObservedCall attempt = onClient.awaitOne(ObservedCall.Kind.CLIENT_ATTEMPT);
    ObservedCall served = onServer.awaitOne(ObservedCall.Kind.SERVER_CALL);
    assertEquals(7, received.get());
    assertEquals(7, attempt.messagesReceived());
    assertEquals(7, served.messagesSent());
    assertEquals(served.messageBytesSent(), attempt.messageBytesReceived());
  }

  @Test
  void compressedMessagesCountTheirCompressedBytes() throws Exception {
    start();
    EchoService gzipped = client.proxy(EchoService.class, CallOptions.DEFAULT.withCompression("gzip"));
    String repetitive = "abc".repeat(2000);
    gzipped.echo(EchoRequest.newBuilder().setMessage(repetitive).build());
    ObservedCall attempt = onClient.awaitOne(ObservedCall.Kind.CLIENT_ATTEMPT);
    ObservedCall served = onServer.awaitOne(ObservedCall.Kind.SERVER_CALL);
    assertTrue(attempt.messageBytesSent() < 1000, "6,000 repetitive bytes go gzipped: " + attempt.messageBytesSent());
    assertEquals(attempt.messageBytesSent(), served.messageBytesReceived());
  }

  @Test
  void failuresEndWithTheirStatusOnBothSides() throws Exception {
    EchoService echo = start();
    assertThrows(StatusException.class,
        () -> echo.echo(EchoRequest.newBuilder().setMessage("bad").setFailCode(Status.Code.INVALID_ARGUMENT.value()).build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, onClient.awaitOne(ObservedCall.Kind.CLIENT_CALL).status().code());
    assertEquals(Status.Code.INVALID_ARGUMENT, onClient.awaitOne(ObservedCall.Kind.CLIENT_ATTEMPT).status().code());
    ObservedCall served = onServer.awaitOne(ObservedCall.Kind.SERVER_CALL);
    assertEquals(Status.Code.INVALID_ARGUMENT, served.status().code());
    assertEquals(0, served.messagesSent());
  }

  @Test
  void aTimedOutCallEndsAsDeadlineExceeded() throws Exception {
    start();
    EchoService hurried = client.proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(100)));
    StatusException e = assertThrows(StatusException.class,
        () -> hurried.echo(EchoRequest.newBuilder().setMessage("slow").setDelayMillis(5_000).build()));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.status().code());
    assertEquals(Status.Code.DEADLINE_EXCEEDED, onClient.awaitOne(ObservedCall.Kind.CLIENT_CALL).status().code());
    Status.Code onTheServer = onServer.awaitOne(ObservedCall.Kind.SERVER_CALL).status().code();
    assertTrue(onTheServer == Status.Code.DEADLINE_EXCEEDED || onTheServer == Status.Code.CANCELLED, onTheServer.toString());
  }

  @Test
  void anUnknownMethodIsSeenByTheServerAsUnknown() throws Exception {
    start();
    Process curl = new ProcessBuilder("curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H",
        "content-type: application/json", "--data-binary", "{}",
        "http://127.0.0.1:" + server.port() + "/no.such.Service/Nothing").redirectErrorStream(true).start();
    String code = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
    assertEquals("404", code);
    ObservedCall served = onServer.awaitOne(ObservedCall.Kind.SERVER_CALL);
    assertEquals("no.such.Service/Nothing", served.method());
    assertFalse(served.knownMethod());
    assertEquals(Status.Code.UNIMPLEMENTED, served.status().code());
    assertEquals("connect", served.protocol(), "curl with a JSON body speaks Connect's unary protocol");
  }

  @Test
  void aRetriedCallIsOneCallOfSeveralAttempts() throws Exception {
    EchoService echo = start(TripleServer.builder(), TripleClient.builder().retryPolicy(RetryPolicy.builder()
        .maxAttempts(3).initialBackoff(Duration.ofMillis(1)).retryableStatusCodes(Status.Code.UNAVAILABLE).build(),
        "triple.test.EchoService"));
    assertThrows(StatusException.class,
        () -> echo.echo(EchoRequest.newBuilder().setMessage("down").setFailCode(Status.Code.UNAVAILABLE.value()).build()));
    onClient.told.await(() -> onClient.ended(ObservedCall.Kind.CLIENT_ATTEMPT).size() == 3, "three attempts");
    assertEquals(List.of(0, 1, 2), onClient.ended(ObservedCall.Kind.CLIENT_ATTEMPT).stream()
        .map(ObservedCall::previousAttempts).sorted().toList());
    assertEquals(Status.Code.UNAVAILABLE, onClient.awaitOne(ObservedCall.Kind.CLIENT_CALL).status().code());
    onServer.told.await(() -> onServer.ended(ObservedCall.Kind.SERVER_CALL).size() == 3, "three calls on the server");
  }

  @Test
  void aCallRefusedByALimitIsSeenWithItsStatus() throws Exception {
    EchoService echo = start(TripleServer.builder().maxConcurrentCalls("triple.test.EchoService/echo", 1),
        TripleClient.builder());
    CompletableFuture<EchoResponse> holding =
        CompletableFuture.supplyAsync(() -> echo.echo(EchoRequest.newBuilder().setMessage("hold").setDelayMillis(5_000).build()));
    onServer.told.await(() -> onServer.started.size() == 1, "the first call runs");
    StatusException refused = assertThrows(StatusException.class,
        () -> echo.echo(EchoRequest.newBuilder().setMessage("more").build()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.status().code());
    onServer.told.await(() -> !onServer.ended(ObservedCall.Kind.SERVER_CALL).isEmpty(), "the refusal is seen");
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, onServer.ended(ObservedCall.Kind.SERVER_CALL).get(0).status().code());
    client.close();
    holding.handle((r, t) -> null).get(10, TimeUnit.SECONDS);
  }

  @Test
  void anObserverThatThrowsBreaksNothing() throws Exception {
    CallObserver broken = new CallObserver() {
      @Override
      public void started(ObservedCall call) {
        throw new IllegalStateException("broken on purpose");
      }

      @Override
      public void ended(ObservedCall call) {
        throw new IllegalStateException("broken on purpose");
      }
    };
    EchoService echo = start(TripleServer.builder().callObserver(broken), TripleClient.builder().callObserver(broken));
    assertEquals("still", echo.echo(EchoRequest.newBuilder().setMessage("still").build()).getMessage());
    assertEquals(Status.Code.OK, onServer.awaitOne(ObservedCall.Kind.SERVER_CALL).status().code());
  }
}
