package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** grpc-java's own interop client, in its own JVM, against Triple's interop server. */
class GrpcJavaClientAgainstTripleServerTest {

  private static TripleServer server;

  @BeforeAll
  static void startServer() {
    server = InteropServer.start("127.0.0.1", 0);
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  static List<String> cases() {
    return InteropClient.STANDARD_CASES;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void grpcJavaClientPasses(String testCase) throws Exception {
    try (JavaProcess client = JavaProcess.start("io.grpc.testing.integration.TestServiceClient",
        "--server_host=127.0.0.1", "--server_port=" + server.port(), "--test_case=" + testCase, "--use_tls=false")) {
      int exit = client.awaitExit(60);
      assertEquals(0, exit, "grpc-java's " + testCase + " failed against Triple:\n" + client.output());
    }
  }
}
