package io.triplerpc.transport.netty.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * curl calls plain Java services, whatever their serialization (Connect unary with a JSON body): one
 * parameter takes the value, several a JSON array of them, none an empty body; the result comes back
 * as JSON, and a body of the wrong shape is a clear 400.
 */
class CurlPlainJavaTest {

  private static TripleServer server;

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Accounts.Hessian.class, new AccountsImpl())
        .addService(Accounts.Fastjson2.class, new AccountsImpl())
        .addService(Accounts.Jackson.class, new AccountsImpl())
        .build()
        .start();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  /** The HTTP status and body curl got for a JSON POST of {@code body} to {@code service/method}. */
  private static String[] post(String service, String method, String body) throws Exception {
    Path out = Files.createTempFile("curl", ".out");
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "-o", out.toString(), "-w", "%{http_code}",
        "-H", "content-type: application/json", "--data-binary", body,
        "http://127.0.0.1:" + server.port() + "/" + service + "/" + method));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String status = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(20, TimeUnit.SECONDS), "curl finished");
    String answer = Files.readString(out, StandardCharsets.UTF_8);
    Files.delete(out);
    return new String[] {status, answer};
  }

  @ParameterizedTest
  @ValueSource(strings = {"triple.test.Accounts", "triple.test.AccountsFastjson2", "triple.test.AccountsJackson"})
  void oneParameterTakesTheValue(String service) throws Exception {
    String[] answer = post(service, "find", "\"b2\"");
    assertEquals("200", answer[0], answer[1]);
    assertTrue(answer[1].contains("\"id\":\"b2\"") && answer[1].contains("\"owner\":\"Bob\""), answer[1]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"triple.test.Accounts", "triple.test.AccountsFastjson2", "triple.test.AccountsJackson"})
  void severalParametersTakeAJsonArray(String service) throws Exception {
    String[] answer = post(service, "transfer",
        "[{\"from\":\"a1\",\"to\":\"b2\",\"amount\":34.56,\"note\":\"rent\"}, false]");
    assertEquals("200", answer[0], answer[1]);
    assertTrue(answer[1].contains("\"balance\":1200.0000"), answer[1]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"triple.test.Accounts", "triple.test.AccountsFastjson2", "triple.test.AccountsJackson"})
  void aDeclaredExceptionIsAnErrorNamingItsClassAndMessage(String service) throws Exception {
    String[] answer = post(service, "transfer", "[{\"from\":\"b2\",\"to\":\"a1\",\"amount\":100,\"note\":\"rent\"}, false]");
    assertEquals("500", answer[0], answer[1]);
    assertTrue(answer[1].startsWith("{\"code\":\"unknown\",\"message\":\"" + Accounts.InsufficientFunds.class.getName()
        + ": rent: short by 90\""), answer[1]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"triple.test.Accounts", "triple.test.AccountsFastjson2", "triple.test.AccountsJackson"})
  void noParametersTakeAnEmptyBody(String service) throws Exception {
    String[] answer = post(service, "count", "");
    assertEquals("200", answer[0], answer[1]);
    assertEquals("2", answer[1].trim());
  }

  @ParameterizedTest
  @ValueSource(strings = {"triple.test.Accounts", "triple.test.AccountsFastjson2", "triple.test.AccountsJackson"})
  void aBodyOfTheWrongShapeIsAClear400(String service) throws Exception {
    String[] wrongCount = post(service, "transfer", "[{\"from\":\"a1\"}]");
    assertEquals("400", wrongCount[0], wrongCount[1]);
    assertTrue(wrongCount[1].contains("takes 2 arguments: send them as a JSON array of 2 values"), wrongCount[1]);
    String[] wrongType = post(service, "find", "{\"not\":\"a string\"}");
    assertEquals("400", wrongType[0], wrongType[1]);
    assertTrue(wrongType[1].contains("\"code\":\"invalid_argument\""), wrongType[1]);
  }
}
