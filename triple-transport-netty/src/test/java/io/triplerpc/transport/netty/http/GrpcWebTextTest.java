package io.triplerpc.transport.netty.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.http.Curl.Answer;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gRPC-Web text ({@code application/grpc-web-text}): the body and the response in base64, the request
 * encoded message by message (padding mid-stream, as browsers' clients do), over HTTP/1.1 and HTTP/2.
 */
class GrpcWebTextTest {

  @TempDir
  Path dir;
  private TripleServer server;

  @BeforeEach
  void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl()).build().start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  private static byte[] framed(byte flags, byte[] payload) {
    return ByteBuffer.allocate(5 + payload.length).put(flags).putInt(payload.length).put(payload).array();
  }

  /** The frames of a decoded gRPC-Web body: each flag byte and payload. */
  private static List<byte[]> frames(byte[] body, List<Integer> flags) {
    List<byte[]> payloads = new ArrayList<>();
    ByteBuffer buffer = ByteBuffer.wrap(body);
    while (buffer.remaining() >= 5) {
      flags.add(buffer.get() & 0xff);
      byte[] payload = new byte[buffer.getInt()];
      buffer.get(payload);
      payloads.add(payload);
    }
    return payloads;
  }

  @ParameterizedTest
  @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
  void aServerStreamingCallInBase64(String version) throws Exception {
    byte[] request = framed((byte) 0, EchoRequest.newBuilder().setMessage("hi").setCount(2).build().toByteArray());
    // Encoded in two parts, each padded, as a client encoding message by message would.
    String body = Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(request, 0, 4))
        + Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(request, 4, request.length));
    Answer answer = new Curl(dir).run(version, "-H", "content-type: application/grpc-web-text",
        "--data-binary", body, "http://127.0.0.1:" + server.port() + "/triple.test.EchoService/serverStream");
    assertEquals(200, answer.status(), answer::toString);
    assertEquals("application/grpc-web-text", answer.header("content-type"));
    // Each write is its own base64 run, padded: decode run by run.
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    String text = answer.body().trim();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '=' && (i + 1 == text.length() || text.charAt(i + 1) != '=')) {
        bytes.writeBytes(Base64.getDecoder().decode(text.substring(start, i + 1)));
        start = i + 1;
      }
    }
    if (start < text.length()) {
      bytes.writeBytes(Base64.getDecoder().decode(text.substring(start)));
    }
    List<Integer> flags = new ArrayList<>();
    List<byte[]> payloads = frames(bytes.toByteArray(), flags);
    assertEquals(List.of(0, 0, 0x80), flags, text);
    assertEquals("hi", EchoResponse.parseFrom(payloads.get(0)).getMessage());
    String trailers = new String(payloads.get(2), StandardCharsets.US_ASCII);
    assertTrue(trailers.startsWith("grpc-status: 0\r\n"), trailers);
  }
}
