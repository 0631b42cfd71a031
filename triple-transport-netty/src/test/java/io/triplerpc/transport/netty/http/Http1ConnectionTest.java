package io.triplerpc.transport.netty.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HTTP/1.1 connection behaviour a curl test cannot script: pipelining, shutdown with idle keep-alive. */
class Http1ConnectionTest {

  private TripleServer server;

  @BeforeEach
  void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl())
        .drainGrace(Duration.ZERO)
        .build().start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow();
    assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "server terminated");
  }

  private static String request(String message, long delayMillis) {
    String body = "{\"message\":\"" + message + "\",\"delayMillis\":\"" + delayMillis + "\"}";
    return "POST /triple.test.EchoService/echo HTTP/1.1\r\nHost: test\r\ncontent-type: application/json\r\n"
        + "content-length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
  }

  /** Reads until {@code count} complete JSON bodies (each ends with '}' at the end of a response) arrived. */
  private static String readResponses(InputStream in, int count) throws IOException {
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    int complete = 0;
    while (complete < count) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      seen.write(b);
      String text = seen.toString(StandardCharsets.UTF_8);
      complete = text.split("\"}", -1).length - 1;
    }
    return seen.toString(StandardCharsets.UTF_8);
  }

  @Test
  void pipelinedRequestsAreAnsweredInRequestOrder() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      // The first is slow: its answer must still come first.
      out.write((request("first", 300) + request("second", 0)).getBytes(StandardCharsets.UTF_8));
      out.flush();
      String answers = readResponses(socket.getInputStream(), 2);
      int first = answers.indexOf("\"message\":\"first\"");
      int second = answers.indexOf("\"message\":\"second\"");
      assertTrue(first >= 0 && second > first, answers);
      assertEquals(2, answers.split("HTTP/1.1 200 OK", -1).length - 1, answers);
    }
  }

  @Test
  void shutdownClosesAnIdleKeepAliveConnection() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request("hi", 0).getBytes(StandardCharsets.UTF_8));
      String answer = readResponses(socket.getInputStream(), 1);
      assertTrue(answer.startsWith("HTTP/1.1 200 OK"), answer);
      server.shutdown();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "graceful shutdown finished");
      assertEquals(-1, socket.getInputStream().read(), "connection closed by the server");
    }
  }
}
