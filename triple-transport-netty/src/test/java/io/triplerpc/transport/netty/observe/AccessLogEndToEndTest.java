package io.triplerpc.transport.netty.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.AccessLog;
import io.triplerpc.CallObserver;
import io.triplerpc.ObservedCall;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.Signal;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link AccessLog} lines of real calls over loopback, on the server and the client. */
class AccessLogEndToEndTest {

  private final List<String> serverLines = Collections.synchronizedList(new ArrayList<>());
  private final List<String> clientLines = Collections.synchronizedList(new ArrayList<>());
  /** Fired after each line either side logs, and after each call the server saw end. */
  private final Signal logged = new Signal();
  private TripleServer server;
  private TripleClient client;

  private EchoService start(TripleServer.Builder serverBuilder, TripleClient.Builder clientBuilder) {
    server = serverBuilder.host("127.0.0.1").port(0).addService(EchoService.class, new EchoServiceImpl())
        .build().start();
    client = clientBuilder.address("127.0.0.1", server.port()).callObserver(AccessLog.observer(line -> log(clientLines, line)))
        .build();
    return client.proxy(EchoService.class);
  }

  private EchoService start() {
    return start(TripleServer.builder().callObserver(AccessLog.observer(line -> log(serverLines, line))), TripleClient.builder());
  }

  private void log(List<String> lines, String line) {
    lines.add(line);
    logged.fire();
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
  void aUnaryCallWritesOneLineOnEachSideWithSizesThatAgree() {
    EchoService echo = start();
    EchoRequest request = EchoRequest.newBuilder().setMessage("hello").build();
    echo.echo(request);
    logged.await(() -> serverLines.size() == 1 && clientLines.size() == 1, "a line on each side");
    String served = serverLines.get(0);
    int size = request.getSerializedSize();
    assertTrue(Pattern.matches("call=server protocol=grpc method=triple\\.test\\.EchoService/echo status=OK"
        + " duration_ms=\\d+\\.\\d{3} peer=127\\.0\\.0\\.1:\\d+ rcvd_msgs=1 rcvd_bytes=" + size
        + " sent_msgs=1 sent_bytes=\\d+", served), served);
    String attempt = clientLines.get(0);
    assertTrue(Pattern.matches("call=client_attempt target=127\\.0\\.0\\.1:" + server.port()
        + " method=triple\\.test\\.EchoService/echo attempt=1 status=OK duration_ms=\\d+\\.\\d{3}"
        + " peer=127\\.0\\.0\\.1:" + server.port() + " sent_msgs=1 sent_bytes=" + size + " rcvd_msgs=1 rcvd_bytes=\\d+",
        attempt), attempt);
    assertEquals(value(served, "sent_bytes"), value(attempt, "rcvd_bytes"));
  }

  @Test
  void aRetriedCallWritesALinePerAttemptAndTheServerOnePerCall() {
    EchoService echo = start(TripleServer.builder().callObserver(AccessLog.observer(line -> log(serverLines, line))),
        TripleClient.builder().retryPolicy(RetryPolicy.builder().maxAttempts(3).initialBackoff(Duration.ofMillis(1))
            .retryableStatusCodes(Status.Code.UNAVAILABLE).build(), "triple.test.EchoService"));
    assertThrows(StatusException.class, () -> echo.echo(
        EchoRequest.newBuilder().setMessage("down").setFailCode(Status.Code.UNAVAILABLE.value()).build()));
    logged.await(() -> clientLines.size() == 3 && serverLines.size() == 3, "three attempts, three calls");
    List<String> attempts;
    synchronized (clientLines) {
      attempts = clientLines.stream().map(line -> value(line, "attempt") + " " + value(line, "status")).sorted().toList();
    }
    assertEquals(List.of("1 UNAVAILABLE", "2 UNAVAILABLE", "3 UNAVAILABLE"), attempts);
  }

  @Test
  void curlsUnknownMethodIsLoggedAsConnectAndUnimplemented() throws Exception {
    start();
    Process curl = new ProcessBuilder("curl", "-sS", "-o", "/dev/null", "-H", "content-type: application/json",
        "--data-binary", "{}", "http://127.0.0.1:" + server.port() + "/no.such.Service/Noth\"ing")
        .redirectErrorStream(true).start();
    curl.getInputStream().readAllBytes();
    assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
    logged.await(() -> serverLines.size() == 1, "the refused call's line");
    String line = serverLines.get(0);
    assertEquals("connect", value(line, "protocol"), line);
    assertEquals("UNIMPLEMENTED", value(line, "status"), line);
    assertTrue(value(line, "method").startsWith("no.such.Service/Noth"), line);
    assertTrue(!line.contains("\""), "the client's quote is escaped: " + line);
  }

  @Test
  void theDefaultObserverWritesToTheAccessLoggerAtInfo() throws Exception {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      // Observers run in order: once the second sees the call end, the first has logged it.
      EchoService echo = start(TripleServer.builder().callObserver(AccessLog.observer()).callObserver(new CallObserver() {
        @Override
        public void ended(ObservedCall call) {
          logged.fire();
        }
      }), TripleClient.builder());
      echo.echo(EchoRequest.newBuilder().setMessage("logged").build());
      // slf4j-simple, on the test class path, writes INFO to System.err as it is when it writes.
      logged.await(() -> captured.toString(StandardCharsets.UTF_8).contains("call=server"), "the logged line");
    } finally {
      System.setErr(original);
    }
    String logged = captured.toString(StandardCharsets.UTF_8).lines()
        .filter(line -> line.contains("call=server")).findFirst().orElseThrow();
    assertTrue(logged.contains("INFO " + AccessLog.LOGGER_NAME + " - call=server protocol=grpc"
        + " method=triple.test.EchoService/echo status=OK"), logged);
  }

  /** The value of {@code key} in a line. */
  private static String value(String line, String key) {
    for (String pair : line.split(" ")) {
      if (pair.startsWith(key + "=")) {
        return pair.substring(key.length() + 1);
      }
    }
    throw new AssertionError("no " + key + " in " + line);
  }
}
