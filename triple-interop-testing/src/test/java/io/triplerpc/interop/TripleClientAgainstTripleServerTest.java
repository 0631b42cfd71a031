package io.triplerpc.interop;

import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Triple's interop client against Triple's interop server: every case, probe variants included. */
class TripleClientAgainstTripleServerTest {

  private static TripleServer server;
  private static InteropClient client;

  @BeforeAll
  static void start() {
    server = InteropServer.start("127.0.0.1", 0);
    client = new InteropClient("127.0.0.1", server.port());
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  static List<String> cases() {
    List<String> all = new ArrayList<>(InteropClient.STANDARD_CASES);
    all.add("client_compressed_unary_noprobe");
    all.add("client_compressed_streaming_noprobe");
    all.add(InteropClient.BULK_BOTH_WAYS);
    return all;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tripleClientPasses(String testCase) throws Exception {
    client.run(testCase);
  }
}
