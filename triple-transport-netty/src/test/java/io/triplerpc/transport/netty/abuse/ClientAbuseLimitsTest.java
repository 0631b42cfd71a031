package io.triplerpc.transport.netty.abuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A scripted hostile server meets the limits of Triple's client connection. */
@Timeout(60)
class ClientAbuseLimitsTest {

  /**
   * Answers the client's first call with response headers, then {@code emptyFrames} empty DATA
   * frames without END_STREAM, and returns the GOAWAY the client sends (null if none before the
   * connection ends); the client's call is left in {@code call}.
   */
  private static RawFramePeer.Frame answerWithEmptyDataFrames(
      UnaryOperator<TripleClient.Builder> customize, int emptyFrames,
      AtomicReference<CompletableFuture<EchoResponse>> call)
      throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      listener.setSoTimeout(30_000);
      try (TripleClient client = customize.apply(
          TripleClient.builder().address("127.0.0.1", listener.getLocalPort())).build()) {
        call.set(client.proxy(EchoService.class).echoAsync(EchoRequest.newBuilder().setMessage("hi").build()));
        try (RawFramePeer server = RawFramePeer.server(listener.accept())) {
          RawFramePeer.Frame request = server.readUntil(RawFramePeer.HEADERS);
          assertNotNull(request, "the client sent no request");
          Http2Headers response = new DefaultHttp2Headers().status("200");
          response.add("content-type", "application/grpc");
          server.headers(request.streamId(), response, false);
          for (int i = 0; i < emptyFrames; i++) {
            server.data(request.streamId(), new byte[0], false);
          }
          server.ping(7);
          server.flush();
          RawFramePeer.Frame frame;
          do {
            frame = server.read();
          } while (frame != null && frame.type() != RawFramePeer.GOAWAY
              && !(frame.type() == RawFramePeer.PING && frame.has(RawFramePeer.FLAG_ACK)));
          if (frame != null && frame.type() == RawFramePeer.GOAWAY) {
            // The call ends with the connection, while the client is still open.
            call.get().handle((echoed, failure) -> null).get(20, TimeUnit.SECONDS);
            return frame;
          }
          // The client answered the PING: it took the frames before it. End the call for a clean close.
          server.data(request.streamId(), new byte[] {0, 0, 0, 0, 0}, false);
          Http2Headers trailers = new DefaultHttp2Headers();
          trailers.add("grpc-status", "0");
          server.headers(request.streamId(), trailers, true);
          server.flush();
          call.get().get(20, TimeUnit.SECONDS);
          return null;
        }
      }
    }
  }

  @Test
  void aServerSendingEmptyDataFramesGetsEnhanceYourCalmAndTheCallFails() throws Exception {
    AtomicReference<CompletableFuture<EchoResponse>> call = new AtomicReference<>();
    RawFramePeer.Frame goAway = answerWithEmptyDataFrames(b -> b, 3, call);
    assertNotNull(goAway, "the client took three empty DATA frames in a row");
    assertEquals(RawFramePeer.ENHANCE_YOUR_CALM, goAway.errorCode(), goAway.debugData());
    ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get().get(20, TimeUnit.SECONDS));
    StatusException status = assertInstanceOf(StatusException.class, failed.getCause());
    assertEquals(Status.Code.UNAVAILABLE, status.status().code(), status.toString());
  }

  @Test
  void withTheLimitOffTheClientTakesEmptyDataFrames() throws Exception {
    AtomicReference<CompletableFuture<EchoResponse>> call = new AtomicReference<>();
    RawFramePeer.Frame goAway = answerWithEmptyDataFrames(b -> b.maxConsecutiveEmptyDataFrames(0), 3, call);
    assertEquals(null, goAway, () -> "GOAWAY " + goAway.errorCode() + " " + goAway.debugData());
  }
}
