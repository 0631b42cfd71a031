package io.triplerpc.transport.netty.abuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Calls a server never processed go again once, on their own (grpc-java's transparent retry): a
 * scripted server refuses the first attempt, by a GOAWAY that names an earlier stream or by
 * RST_STREAM REFUSED_STREAM, and answers the second.
 */
@Timeout(60)
class TransparentRetryTest {

  private static final long NO_ERROR = 0;
  private static final long REFUSED_STREAM = 0x7;

  private ServerSocket listener;
  private TripleClient client;

  @BeforeEach
  void listen() throws IOException {
    listener = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
    listener.setSoTimeout(30_000);
    client = TripleClient.builder().address("127.0.0.1", listener.getLocalPort()).build();
  }

  @AfterEach
  void close() throws IOException {
    client.close();
    listener.close();
  }

  private CompletableFuture<EchoResponse> echo(String message) {
    return client.proxy(EchoService.class).echoAsync(EchoRequest.newBuilder().setMessage(message).build());
  }

  private RawFramePeer accept() throws IOException {
    java.net.Socket socket = listener.accept();
    socket.setSoTimeout(30_000);
    return RawFramePeer.server(socket);
  }

  /** Reads the client's next request; returns its stream id once its END_STREAM has come. */
  private static int readRequest(RawFramePeer server) throws IOException {
    RawFramePeer.Frame headers = server.readUntil(RawFramePeer.HEADERS);
    assertNotNull(headers, "the client sent no request");
    if (!headers.has(RawFramePeer.FLAG_END_STREAM)) {
      RawFramePeer.Frame frame;
      do {
        frame = server.read();
      } while (frame != null && !(frame.streamId() == headers.streamId() && frame.has(RawFramePeer.FLAG_END_STREAM)));
    }
    return headers.streamId();
  }

  /** Answers stream {@code id} with the echo of {@code message}. */
  private static void answer(RawFramePeer server, int id, String message) throws IOException {
    Http2Headers headers = new DefaultHttp2Headers().status("200");
    headers.add("content-type", "application/grpc");
    server.headers(id, headers, false);
    byte[] body = EchoResponse.newBuilder().setMessage(message).build().toByteArray();
    server.data(id, ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(body.length).put(body).array(), false);
    Http2Headers trailers = new DefaultHttp2Headers();
    trailers.add("grpc-status", "0");
    server.headers(id, trailers, true);
    server.flush();
  }

  private static void goAway(RawFramePeer server, int lastStreamId, long errorCode) throws IOException {
    server.frame(RawFramePeer.GOAWAY, 0, 0, ByteBuffer.allocate(8).putInt(lastStreamId).putInt((int) errorCode).array());
    server.flush();
  }

  @Test
  void aCallAboveTheGoAwaysLastStreamGoesAgainOnANewConnection() throws Exception {
    CompletableFuture<EchoResponse> call = echo("again");
    try (RawFramePeer first = accept()) {
      int id = readRequest(first);
      goAway(first, id - 2, NO_ERROR);
      try (RawFramePeer second = accept()) {
        answer(second, readRequest(second), "again");
        assertEquals("again", call.get(20, TimeUnit.SECONDS).getMessage());
      }
    }
  }

  @Test
  void aRefusedStreamGoesAgainOnTheSameConnection() throws Exception {
    CompletableFuture<EchoResponse> call = echo("refused once");
    try (RawFramePeer server = accept()) {
      int id = readRequest(server);
      server.rstStream(id, REFUSED_STREAM);
      server.flush();
      int retry = readRequest(server);
      assertTrue(retry > id, "a new stream: " + retry);
      answer(server, retry, "refused once");
      assertEquals("refused once", call.get(20, TimeUnit.SECONDS).getMessage());
    }
  }

  @Test
  void aCallGoesAgainOnlyOnce() throws Exception {
    CompletableFuture<EchoResponse> call = echo("twice refused");
    try (RawFramePeer server = accept()) {
      server.rstStream(readRequest(server), REFUSED_STREAM);
      server.flush();
      server.rstStream(readRequest(server), REFUSED_STREAM);
      server.flush();
      ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(20, TimeUnit.SECONDS));
      Status status = assertInstanceOf(StatusException.class, e.getCause()).status();
      assertEquals(Status.Code.UNAVAILABLE, status.code());
      assertTrue(status.description().contains("REFUSED_STREAM"), status.toString());
    }
  }

  @Test
  void aCallTheServerMayHaveProcessedIsNotRetried() throws Exception {
    CompletableFuture<EchoResponse> call = echo("processed");
    try (RawFramePeer server = accept()) {
      int id = readRequest(server);
      // The GOAWAY names the call's stream: the server may have acted on it.
      goAway(server, id, NO_ERROR);
      server.close();
      ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(20, TimeUnit.SECONDS));
      assertEquals(Status.Code.UNAVAILABLE, assertInstanceOf(StatusException.class, e.getCause()).status().code());
    }
  }

  /** The request messages of stream {@code id}, read until the client ends it. */
  private static java.util.List<String> readStreamedRequests(RawFramePeer server, int id) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    RawFramePeer.Frame frame;
    do {
      frame = server.read();
      assertNotNull(frame, "the connection ended");
      if (frame.type() == RawFramePeer.DATA && frame.streamId() == id) {
        bytes.write(frame.payload());
      }
    } while (!(frame.streamId() == id && frame.has(RawFramePeer.FLAG_END_STREAM)));
    java.util.List<String> messages = new java.util.ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(bytes.toByteArray());
    while (in.remaining() >= 5) {
      in.get();
      byte[] message = new byte[in.getInt()];
      in.get(message);
      messages.add(EchoRequest.parseFrom(message).getMessage());
    }
    return messages;
  }

  /** A client-streaming call through {@code observer}'s outcome. */
  private StreamObserver<EchoRequest> clientStream(CompletableFuture<Object> outcome) {
    return client.proxy(EchoService.class).clientStream(new StreamObserver<>() {
      @Override
      public void onNext(EchoResponse value) {
        outcome.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        outcome.complete(t);
      }

      @Override
      public void onCompleted() {
      }
    });
  }

  private static EchoRequest request(String message) {
    return EchoRequest.newBuilder().setMessage(message).build();
  }

  @Test
  void aStreamingCallGoesAgainWithEveryRequestItSentAndThoseThatFollow() throws Exception {
    CompletableFuture<Object> outcome = new CompletableFuture<>();
    StreamObserver<EchoRequest> requests = clientStream(outcome);
    requests.onNext(request("one"));
    requests.onNext(request("two"));
    try (RawFramePeer server = accept()) {
      RawFramePeer.Frame headers = server.readUntil(RawFramePeer.HEADERS);
      int first = headers.streamId();
      server.rstStream(first, REFUSED_STREAM);
      server.flush();
      RawFramePeer.Frame retry = server.readUntil(RawFramePeer.HEADERS);
      assertTrue(retry.streamId() > first, "a new stream");
      requests.onNext(request("three"));
      requests.onCompleted();
      assertEquals(java.util.List.of("one", "two", "three"), readStreamedRequests(server, retry.streamId()),
          "what was sent before the refusal, again, then what came after, in order");
      answer(server, retry.streamId(), "all three");
      assertEquals("all three", ((EchoResponse) outcome.get(20, TimeUnit.SECONDS)).getMessage());
    }
  }

  @Test
  void aStreamingCallThatSentMoreThanItMayKeepIsNotReplayed() throws Exception {
    CompletableFuture<Object> outcome = new CompletableFuture<>();
    StreamObserver<EchoRequest> requests = clientStream(outcome);
    // Two requests of 600 KiB: more than the 1 MiB a call keeps for a retry.
    String big = "x".repeat(600 * 1024);
    requests.onNext(request(big));
    requests.onNext(request(big));
    requests.onCompleted();
    try (RawFramePeer server = accept()) {
      // Refused as soon as it arrives; both requests were sent (and could not be kept) before.
      int id = server.readUntil(RawFramePeer.HEADERS).streamId();
      server.rstStream(id, REFUSED_STREAM);
      server.flush();
      Object failure = outcome.get(20, TimeUnit.SECONDS);
      Status status = assertInstanceOf(StatusException.class, failure).status();
      assertEquals(Status.Code.UNAVAILABLE, status.code());
      assertTrue(status.description().contains("REFUSED_STREAM"), status.toString());
    }
  }
}
