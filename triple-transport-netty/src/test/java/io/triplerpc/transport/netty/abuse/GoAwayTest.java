package io.triplerpc.transport.netty.abuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What each side sends when it closes a connection, read frame by frame by a scripted peer. */
@Timeout(60)
class GoAwayTest {

  private static final String ECHO = "/triple.test.EchoService/echo";

  /** A GOAWAY's last-stream-id. */
  private static int lastStreamId(RawFramePeer.Frame goAway) {
    return ByteBuffer.wrap(goAway.payload(), 0, 4).getInt() & Integer.MAX_VALUE;
  }

  @Test
  void closingTheClientCancelsItsCallsThenSendsGoAwayAndCloses() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      listener.setSoTimeout(30_000);
      TripleClient client = TripleClient.builder().address("127.0.0.1", listener.getLocalPort()).build();
      CompletableFuture<EchoResponse> call =
          client.proxy(EchoService.class).echoAsync(EchoRequest.newBuilder().setMessage("hi").build());
      try (RawFramePeer server = RawFramePeer.server(listener.accept())) {
        RawFramePeer.Frame request = server.readUntil(RawFramePeer.HEADERS);
        assertNotNull(request, "the client sent no request");
        client.close();
        List<RawFramePeer.Frame> closing = new ArrayList<>();
        for (RawFramePeer.Frame frame = server.read(); frame != null; frame = server.read()) {
          if (frame.type() == RawFramePeer.RST_STREAM || frame.type() == RawFramePeer.GOAWAY) {
            closing.add(frame);
          }
        }
        assertEquals(2, closing.size(), "RST_STREAM and GOAWAY, then the connection ends: " + closing);
        RawFramePeer.Frame reset = closing.get(0);
        assertEquals(RawFramePeer.RST_STREAM, reset.type());
        assertEquals(request.streamId(), reset.streamId());
        assertEquals(0x8, ByteBuffer.wrap(reset.payload()).getInt(), "RST_STREAM CANCEL");
        RawFramePeer.Frame goAway = closing.get(1);
        assertEquals(RawFramePeer.GOAWAY, goAway.type());
        assertEquals(0, lastStreamId(goAway), "a server opens no streams of its own");
        assertEquals(0, goAway.errorCode(), "NO_ERROR");
      }
      ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get(20, TimeUnit.SECONDS));
      assertEquals(Status.Code.UNAVAILABLE, assertInstanceOf(StatusException.class, failed.getCause()).status().code());
    }
  }

  @Test
  void gracefulShutdownSendsItsSecondGoAwayAfterThePingAckNamingTheLastStreamProcessed() throws Exception {
    // A drain grace far beyond the test's timeout: only the PING ACK can bring the second GOAWAY.
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0).drainGrace(Duration.ofMinutes(10))
        .addService(EchoService.class, new EchoServiceImpl()).build().start();
    try (RawFramePeer client = RawFramePeer.client(server.port())) {
      Http2Headers request = new DefaultHttp2Headers()
          .method("POST").scheme("http").path(ECHO).authority("127.0.0.1:" + server.port());
      request.add("content-type", "application/grpc");
      request.add("te", "trailers");
      client.headers(1, request, false);
      client.flush();
      // The server's SETTINGS: its HTTP/2 handler is in place (a connection still being detected just closes).
      assertNotNull(client.readUntil(RawFramePeer.SETTINGS));
      server.shutdown();

      RawFramePeer.Frame first = client.readUntil(RawFramePeer.GOAWAY);
      assertNotNull(first, "no GOAWAY");
      assertEquals(Integer.MAX_VALUE, lastStreamId(first), "the first GOAWAY sets no limit yet");
      RawFramePeer.Frame ping = client.read();
      assertNotNull(ping);
      assertEquals(RawFramePeer.PING, ping.type(), "a PING right after the first GOAWAY");
      assertEquals(0, ping.flags() & RawFramePeer.FLAG_ACK);

      // A stream the client opened before it read the GOAWAY, sent before the ACK: still served.
      client.headers(3, request, false);
      client.frame(RawFramePeer.PING, RawFramePeer.FLAG_ACK, 0, ping.payload());
      client.flush();
      RawFramePeer.Frame second = client.readUntil(RawFramePeer.GOAWAY);
      assertNotNull(second, "no second GOAWAY after the PING ACK");
      assertEquals(3, lastStreamId(second), "the second GOAWAY names the last stream, sent before the ACK");
      assertEquals(0, second.errorCode(), "NO_ERROR");

      // Both calls in flight still finish; then the connection closes.
      byte[] message = EchoRequest.newBuilder().setMessage("late").build().toByteArray();
      byte[] framed = ByteBuffer.allocate(5 + message.length).put((byte) 0).putInt(message.length).put(message).array();
      client.data(1, framed, true);
      client.data(3, framed, true);
      client.flush();
      List<Integer> ended = new ArrayList<>();
      for (RawFramePeer.Frame frame = client.read(); frame != null; frame = client.read()) {
        assertTrue(frame.type() != RawFramePeer.GOAWAY, "no third GOAWAY");
        if (frame.type() == RawFramePeer.HEADERS && frame.has(RawFramePeer.FLAG_END_STREAM)) {
          ended.add(frame.streamId());
        }
      }
      ended.sort(null);
      assertArrayEquals(new Object[] {1, 3}, ended.toArray(), "both calls end before the connection closes");
      assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "server did not terminate");
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void shutdownNowSendsGoAwayNamingTheLastStreamThenCloses() throws Exception {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl()).build().start();
    try (RawFramePeer client = RawFramePeer.client(server.port())) {
      Http2Headers request = new DefaultHttp2Headers()
          .method("POST").scheme("http").path(ECHO).authority("127.0.0.1:" + server.port());
      request.add("content-type", "application/grpc");
      request.add("te", "trailers");
      client.headers(1, request, false);
      client.headers(3, request, false);
      client.flush();
      assertNotNull(client.readUntil(RawFramePeer.SETTINGS));
      // A PING answered after both HEADERS: the server has opened both streams.
      client.ping(42);
      client.flush();
      RawFramePeer.Frame ack;
      do {
        ack = client.readUntil(RawFramePeer.PING);
      } while (ack != null && !ack.has(RawFramePeer.FLAG_ACK));
      assertNotNull(ack, "no PING ACK");
      server.shutdownNow();
      RawFramePeer.Transcript transcript = client.readToEnd();
      assertEquals(1, transcript.goAways().size(), "one GOAWAY, then the connection ends: " + transcript.goAways());
      assertEquals(3, lastStreamId(transcript.goAways().get(0)));
      assertEquals(0, transcript.goAwayError(), "NO_ERROR");
      assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "server did not terminate");
    } finally {
      server.shutdownNow();
    }
  }
}
