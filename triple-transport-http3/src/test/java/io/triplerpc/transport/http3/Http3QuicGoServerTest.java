package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.StringValue;
import io.triplerpc.ClientProtocol;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.testing.TestCertificates;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Triple's client with {@code http3()} calls a quic-go server: connect-go v1.21.1 handlers of
 * {@code triple.http3.Echo} on quic-go v0.65.0's {@code http3.Server} (the Go program of
 * {@link QuicGoInteropTest} with {@code -serve}: one build, one process for the class), in gRPC and in
 * Connect: unary, server streaming, full-duplex bidi, an error, and a 4 MiB message each way. Skipped only
 * where Go is not installed.
 */
class Http3QuicGoServerTest {

  private static Process server;
  private static int port;
  private static final Map<ClientProtocol, TripleClient> clients = new EnumMap<>(ClientProtocol.class);

  @BeforeAll
  static void startQuicGoServer() throws Exception {
    String unavailable = QuicGoClient.unavailable();
    assumeTrue(unavailable == null, unavailable);
    Path program = QuicGoClient.build();
    server = new ProcessBuilder(program.toString(), "-serve", "-addr", "127.0.0.1:0",
        "-cert", TestCertificates.serverCertificate().toString(), "-key", TestCertificates.serverKey().toString())
        .redirectErrorStream(true)
        .start();
    BufferedReader output = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    String first = CompletableFuture.supplyAsync(() -> {
      try {
        return output.readLine();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }).get(60, TimeUnit.SECONDS);
    if (first == null || !first.startsWith("listening ")) {
      throw new IllegalStateException("the quic-go server did not start: " + first);
    }
    port = Integer.parseInt(first.substring("listening ".length()).trim());
  }

  @AfterAll
  static void stopQuicGoServer() throws InterruptedException {
    clients.values().forEach(TripleClient::close);
    clients.clear();
    if (server != null) {
      server.destroy();
      server.waitFor(20, TimeUnit.SECONDS);
    }
  }

  private static synchronized Echo echo(ClientProtocol protocol) {
    return clients.computeIfAbsent(protocol, p -> TripleClient.builder()
        .address("localhost", port)
        .tls(Http3ClientTest.clientTls())
        .protocol(p)
        .maxInboundMessageSize(16 << 20)
        .http3()
        .build()).proxy(Echo.class);
  }

  @ParameterizedTest
  @EnumSource(value = ClientProtocol.class, names = {"GRPC", "CONNECT"})
  void unary(ClientProtocol protocol) {
    assertEquals("echo quic", echo(protocol).unary(StringValue.of("quic")).getValue());
  }

  @ParameterizedTest
  @EnumSource(value = ClientProtocol.class, names = {"GRPC", "CONNECT"})
  void serverStreaming(ClientProtocol protocol) throws Exception {
    Http3ClientTest.Collected<StringValue> responses = new Http3ClientTest.Collected<>();
    echo(protocol).serverStream(StringValue.of("5"), responses);
    assertEquals(List.of("0", "1", "2", "3", "4"), responses.await().stream().map(StringValue::getValue).toList());
  }

  @ParameterizedTest
  @EnumSource(value = ClientProtocol.class, names = {"GRPC", "CONNECT"})
  void bidiIsFullDuplex(ClientProtocol protocol) throws Exception {
    LinkedBlockingQueue<String> answers = new LinkedBlockingQueue<>();
    Http3ClientTest.Collected<StringValue> responses = new Http3ClientTest.Collected<>() {
      @Override
      public void onNext(StringValue value) {
        answers.add(value.getValue());
        super.onNext(value);
      }
    };
    StreamObserver<StringValue> requests = echo(protocol).bidi(responses);
    for (String word : List.of("a", "b", "c")) {
      requests.onNext(StringValue.of(word));
      assertEquals("echo " + word, answers.poll(20, TimeUnit.SECONDS));
    }
    requests.onCompleted();
    assertEquals(3, responses.await().size());
  }

  @ParameterizedTest
  @EnumSource(value = ClientProtocol.class, names = {"GRPC", "CONNECT"})
  void anError(ClientProtocol protocol) {
    StatusException e = assertThrows(StatusException.class, () -> echo(protocol).fail(StringValue.of("not here")));
    assertEquals(Status.Code.NOT_FOUND, e.status().code());
    assertEquals("not here", e.status().description());
  }

  @ParameterizedTest
  @EnumSource(value = ClientProtocol.class, names = {"GRPC", "CONNECT"})
  void aLargeMessageEachWay(ClientProtocol protocol) {
    byte[] request = new byte[4 << 20];
    Arrays.fill(request, (byte) 'q');
    byte[] answer = echo(protocol).large(BytesValue.of(ByteString.copyFrom(request))).getValue().toByteArray();
    byte[] expected = new byte[request.length];
    Arrays.fill(expected, (byte) 'Q');
    assertEquals(expected.length, answer.length);
    assertEquals(ByteString.copyFrom(expected), ByteString.copyFrom(answer));
  }
}
