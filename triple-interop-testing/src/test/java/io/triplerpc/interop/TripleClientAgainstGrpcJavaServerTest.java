package io.triplerpc.interop;

import java.net.ServerSocket;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Triple's interop client against grpc-java's own interop server, in its own JVM. */
class TripleClientAgainstGrpcJavaServerTest {

  private static JavaProcess server;
  private static InteropClient client;

  @BeforeAll
  static void startServer() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    server = JavaProcess.start("io.grpc.testing.integration.TestServiceServer", "--port=" + port, "--use_tls=false");
    server.awaitListening(port, 60);
    client = new InteropClient("127.0.0.1", port);
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /**
   * The standard cases; grpc-java's standalone server does not refuse an uncompressed message marked
   * expect_compressed, so the two client-compressed cases run without that probe here (and with it
   * against Triple's server, in {@link TripleClientAgainstTripleServerTest}); and 32 MiB each way, which
   * makes both sides grow their windows with measurement PINGs.
   */
  static List<String> cases() {
    return Stream.concat(InteropClient.STANDARD_CASES.stream()
        .map(name -> name.startsWith("client_compressed_") ? name + "_noprobe" : name),
        Stream.of(InteropClient.BULK_BOTH_WAYS))
        .toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tripleClientPasses(String testCase) throws Exception {
    client.run(testCase);
  }
}
