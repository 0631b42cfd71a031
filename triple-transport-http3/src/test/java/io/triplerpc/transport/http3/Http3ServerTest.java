package io.triplerpc.transport.http3;

import static io.triplerpc.transport.http3.Http3TestClient.await;
import static io.triplerpc.transport.http3.Http3TestClient.grpcFrame;
import static io.triplerpc.transport.http3.Http3TestClient.post;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.netty.buffer.Unpooled;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Triple server with {@code http3()}, called over real QUIC on loopback by Netty's own HTTP/3 client
 * ({@link Http3TestClient}): gRPC (unary, server streaming, an error status in the trailers, a message over
 * the limit), Connect unary with JSON, and a graceful shutdown with a call in flight.
 */
class Http3ServerTest {

  private final EchoImpl echo = new EchoImpl();
  private TripleServer server;
  private Http3TestClient client;

  private void start() throws Exception {
    server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .tls(TlsConfig.builder()
            .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
            .build())
        .http3()
        .addService(Echo.class, echo)
        .build()
        .start();
    client = Http3TestClient.connect(new InetSocketAddress("127.0.0.1", server.port()));
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "server terminated");
    }
  }

  @Test
  void grpcUnaryIsServedWithItsStatusInTrailers() throws Exception {
    start();
    Http3TestClient.Response response = await(client.send(post("/triple.http3.Echo/Unary", "application/grpc"),
        grpcFrame(StringValue.of("quic").toByteArray())));
    assertEquals("200", response.head().status().toString());
    assertEquals("application/grpc", response.head().get("content-type").toString());
    assertEquals(List.of("echo quic"), messages(response.body()));
    assertNotNull(response.trailers(), "trailers");
    assertEquals("0", response.trailers().get("grpc-status").toString());
  }

  @Test
  void grpcServerStreamingSendsEachMessageThenTrailers() throws Exception {
    start();
    Http3TestClient.Response response = await(client.send(
        post("/triple.http3.Echo/ServerStream", "application/grpc+proto"),
        grpcFrame(StringValue.of("5").toByteArray())));
    assertEquals(List.of("0", "1", "2", "3", "4"), messages(response.body()));
    assertEquals("0", response.trailers().get("grpc-status").toString());
  }

  @Test
  void grpcErrorIsATrailersOnlyResponse() throws Exception {
    start();
    Http3TestClient.Response response = await(client.send(post("/triple.http3.Echo/Fail", "application/grpc"),
        grpcFrame(StringValue.of("no such thing").toByteArray())));
    // One HEADERS frame: status 200 and the gRPC status together.
    assertNull(response.trailers());
    assertEquals(0, response.body().length);
    assertEquals("200", response.head().status().toString());
    assertEquals("5", response.head().get("grpc-status").toString());
    assertEquals("no such thing", response.head().get("grpc-message").toString());
  }

  @Test
  void grpcUnknownMethodIsUnimplemented() throws Exception {
    start();
    Http3TestClient.Response response = await(client.send(post("/triple.http3.Echo/Nope", "application/grpc"),
        grpcFrame(new byte[0])));
    assertEquals("12", response.head().get("grpc-status").toString());
  }

  @Test
  void grpcMessageOverTheLimitIsResourceExhausted() throws Exception {
    start();
    byte[] tooLarge = StringValue.of("x".repeat((4 << 20) + 1024)).toByteArray();
    Http3TestClient.Response response = await(client.send(post("/triple.http3.Echo/Unary", "application/grpc"),
        grpcFrame(tooLarge)));
    CharSequence status = response.trailers() != null
        ? response.trailers().get("grpc-status") : response.head().get("grpc-status");
    assertEquals("8", status.toString());
  }

  @Test
  void connectUnaryWithJsonIsServed() throws Exception {
    start();
    Http3TestClient.Response response = await(client.send(post("/triple.http3.Echo/Unary", "application/json"),
        Unpooled.copiedBuffer("\"quic\"", StandardCharsets.UTF_8)));
    assertEquals("200", response.head().status().toString());
    assertEquals("application/json", response.head().get("content-type").toString());
    assertEquals("\"echo quic\"", new String(response.body(), StandardCharsets.UTF_8).trim(),
        () -> response.head() + " " + java.util.Arrays.toString(response.body()));
  }

  @Test
  void connectUnaryErrorIsJsonWithItsHttpStatus() throws Exception {
    start();
    Http3TestClient.Response response = await(client.send(post("/triple.http3.Echo/Fail", "application/json"),
        Unpooled.copiedBuffer("\"gone\"", StandardCharsets.UTF_8)));
    assertEquals("404", response.head().status().toString());
    String json = new String(response.body(), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"not_found\"") && json.contains("\"gone\""), json);
  }

  @Test
  void gracefulShutdownLetsTheCallInFlightFinish() throws Exception {
    start();
    CompletableFuture<Http3TestClient.Response> inFlight = client.send(
        post("/triple.http3.Echo/Hold", "application/grpc"), grpcFrame(StringValue.of("wait").toByteArray()));
    CompletableFuture<StringValue> answer = echo.held.poll(20, TimeUnit.SECONDS);
    assertNotNull(answer, "the call reached the service");

    server.shutdown();
    assertEquals(Http3TestClient.MAX_REQUEST_STREAM_ID, await(client.firstGoAway));
    // The second GOAWAY names the first stream not served: the one after the call in flight (stream 0).
    assertEquals(4L, await(client.finalGoAway));
    assertFalse(server.isTerminated(), "a call is in flight");

    answer.complete(StringValue.of("done"));
    Http3TestClient.Response response = await(inFlight);
    assertEquals(List.of("done"), messages(response.body()));
    assertEquals("0", response.trailers().get("grpc-status").toString());
    assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "terminated once the call ended");
  }

  /** The string values of the gRPC messages in {@code body}. */
  private static List<String> messages(byte[] body) throws Exception {
    List<String> values = new ArrayList<>();
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
    while (in.available() > 0) {
      assertEquals(0, in.readByte(), "uncompressed");
      byte[] message = new byte[in.readInt()];
      in.readFully(message);
      values.add(StringValue.parseFrom(message).getValue());
    }
    return values;
  }

}
