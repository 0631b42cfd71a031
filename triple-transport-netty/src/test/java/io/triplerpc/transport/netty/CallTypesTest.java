package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.StreamObserver;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CallTypesTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  /** A server whose bidi calls greet the client before it sends anything. */
  @RegisterExtension final EchoFixture greeting = new EchoFixture(new EchoServiceImpl() {
    @Override
    public StreamObserver<EchoRequest> bidi(StreamObserver<EchoResponse> responses) {
      responses.onNext(EchoResponse.newBuilder().setMessage("hello first").build());
      return super.bidi(responses);
    }
  });

  private static EchoRequest request(String message) {
    return EchoRequest.newBuilder().setMessage(message).build();
  }

  @Test
  void blockingUnaryCallReturnsTheResponse() {
    EchoResponse response = fixture.echo().echo(request("hello"));
    assertEquals("hello", response.getMessage());
  }

  @Test
  void futureUnaryCallCompletesWithTheResponse() throws Exception {
    CompletableFuture<EchoResponse> future = fixture.echo().echoAsync(request("later"));
    assertEquals("later", future.get(10, TimeUnit.SECONDS).getMessage());
  }

  @Test
  void serverStreamingDeliversEveryResponseInOrder() throws Exception {
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    fixture.echo().serverStream(EchoRequest.newBuilder().setMessage("s").setCount(500).build(), responses);
    responses.awaitCompletion();
    assertNull(responses.error());
    assertEquals(500, responses.values().size());
    for (int i = 0; i < 500; i++) {
      assertEquals(i, responses.values().get(i).getIndex());
    }
  }

  @Test
  void serverStreamingWithNoResponsesCompletes() throws Exception {
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    fixture.echo().serverStream(EchoRequest.newBuilder().setCount(0).build(), responses);
    responses.awaitCompletion();
    assertNull(responses.error());
    assertTrue(responses.values().isEmpty());
  }

  @Test
  void clientStreamingSendsEveryRequestAndGetsOneResponse() throws Exception {
    RecordingObserver<EchoResponse> response = new RecordingObserver<>();
    StreamObserver<EchoRequest> requests = fixture.echo().clientStream(response);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      requests.onNext(request("m" + i));
      expected.append("m").append(i);
    }
    requests.onCompleted();
    response.awaitCompletion();
    assertNull(response.error());
    assertEquals(1, response.values().size());
    assertEquals(expected.toString(), response.values().get(0).getMessage());
    assertEquals(100, response.values().get(0).getIndex());
  }

  @Test
  void aStreamingCallReachesTheServerBeforeTheClientSendsAnything() throws Exception {
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    StreamObserver<EchoRequest> requests = greeting.echo().bidi(responses);
    // Nothing sent: the call's headers alone must reach the server for it to speak first.
    assertEquals("hello first", responses.awaitValue(0).getMessage());
    requests.onCompleted();
    responses.awaitCompletion();
    assertNull(responses.error());
  }

  @Test
  void bidiStreamingAnswersEachRequestAsItComes() throws Exception {
    List<String> sent = new ArrayList<>();
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    StreamObserver<EchoRequest> requests = fixture.echo().bidi(responses);
    for (int i = 0; i < 5; i++) {
      String message = "ping-" + i;
      sent.add(message);
      requests.onNext(request(message));
      // Each answer arrives before the next request is sent: the stream is truly two-way.
      assertEquals(message, responses.awaitValue(i).getMessage());
    }
    requests.onCompleted();
    responses.awaitCompletion();
    assertNull(responses.error());
    assertEquals(sent, responses.values().stream().map(EchoResponse::getMessage).toList());
  }

  @Test
  void largeMessagesRoundTripBothWays() throws Exception {
    int size = 3 * 1024 * 1024;
    byte[] payload = new byte[size];
    for (int i = 0; i < size; i++) {
      payload[i] = (byte) i;
    }
    EchoResponse response = fixture.echo().echo(EchoRequest.newBuilder()
        .setPayload(com.google.protobuf.ByteString.copyFrom(payload))
        .setResponseSize(size)
        .build());
    assertEquals(size, response.getPayload().size());
    assertEquals(EchoServiceImpl.response(EchoRequest.newBuilder().setResponseSize(size).build(), 0, "").getPayload(),
        response.getPayload());
  }

  @Test
  void manyCallsInFlightShareOneConnection() throws Exception {
    List<CompletableFuture<EchoResponse>> futures = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      futures.add(fixture.echo().echoAsync(request("n" + i)));
    }
    for (int i = 0; i < futures.size(); i++) {
      assertEquals("n" + i, futures.get(i).get(10, TimeUnit.SECONDS).getMessage());
    }
    assertTrue(fixture.client().isConnectionActive());
  }
}
