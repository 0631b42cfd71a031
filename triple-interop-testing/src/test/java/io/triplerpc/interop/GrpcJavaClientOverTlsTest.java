package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * grpc-java's interop client over TLS (its test CA, host override foo.test.google.fr) against
 * Triple's interop server with {@code --use_tls=true}: what {@code scripts/interop-server.sh
 * --use_tls=true} offers outside tools.
 */
class GrpcJavaClientOverTlsTest {

  private static TripleServer server;

  @BeforeAll
  static void startServer() {
    server = InteropServer.start("127.0.0.1", 0, true);
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  static List<String> cases() {
    return List.of("empty_unary", "large_unary", "ping_pong", "server_streaming", "custom_metadata",
        "status_code_and_message");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void grpcJavaClientPassesOverTls(String testCase) throws Exception {
    try (JavaProcess client = JavaProcess.start("io.grpc.testing.integration.TestServiceClient",
        "--server_host=127.0.0.1", "--server_port=" + server.port(), "--test_case=" + testCase,
        "--use_tls=true", "--use_test_ca=true", "--server_host_override=foo.test.google.fr")) {
      int exit = client.awaitExit(60);
      assertEquals(0, exit, "grpc-java's " + testCase + " over TLS failed against Triple:\n" + client.output());
    }
  }
}
