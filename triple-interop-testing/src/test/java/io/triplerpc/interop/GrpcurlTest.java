package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.TripleServer;
import io.triplerpc.testing.GoTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real grpcurl (installed by {@code .ci/run} with {@code go install}) against the interop server,
 * with no .proto file: everything it knows comes from server reflection.
 */
class GrpcurlTest {

  private static TripleServer server;
  private static Path grpcurl;

  @BeforeAll
  static void start() {
    grpcurl = GoTools.find("grpcurl");
    assumeTrue(grpcurl != null, "grpcurl is not installed (go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3)");
    server = InteropServer.start("127.0.0.1", 0);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  /** Runs {@code grpcurl -plaintext [flags] address [what...]}; returns its exit code and output. */
  private static String[] run(List<String> flags, String... what) throws Exception {
    List<String> command = new ArrayList<>(List.of(grpcurl.toString(), "-plaintext", "-max-time", "20"));
    command.addAll(flags);
    command.add("127.0.0.1:" + server.port());
    command.addAll(List.of(what));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "grpcurl hung");
    return new String[] {Integer.toString(process.exitValue()), output};
  }

  @Test
  void listsDescribesAndCallsWithoutAProtoFile() throws Exception {
    String[] list = run(List.of(), "list");
    assertEquals("0", list[0], list[1]);
    assertTrue(list[1].contains("grpc.testing.TestService\n") && list[1].contains("grpc.health.v1.Health\n"), list[1]);

    String[] describe = run(List.of(), "describe", "grpc.testing.TestService");
    assertEquals("0", describe[0], describe[1]);
    assertTrue(describe[1].contains("rpc UnaryCall ( .grpc.testing.SimpleRequest ) returns ( .grpc.testing.SimpleResponse )"),
        describe[1]);
    assertTrue(describe[1].contains(
        "rpc FullDuplexCall ( stream .grpc.testing.StreamingOutputCallRequest ) returns ( stream .grpc.testing.StreamingOutputCallResponse )"),
        describe[1]);

    String[] message = run(List.of(), "describe", "grpc.testing.SimpleRequest");
    assertEquals("0", message[0], message[1]);
    assertTrue(message[1].contains("int32 response_size = 2;"), message[1]);

    String[] call = run(List.of("-d", "{\"response_size\": 3}"), "grpc.testing.TestService/UnaryCall");
    assertEquals("0", call[0], call[1]);
    assertTrue(call[1].contains("\"body\": \"AAAA\""), call[1]);

    String[] health = run(List.of("-d", "{\"service\": \"grpc.testing.TestService\"}"), "grpc.health.v1.Health/Check");
    assertEquals("0", health[0], health[1]);
    assertTrue(health[1].contains("\"status\": \"SERVING\""), health[1]);

    String[] unknown = run(List.of(), "describe", "no.such.Service");
    assertTrue(!"0".equals(unknown[0]) && unknown[1].contains("Symbol not found"), unknown[1]);
  }
}
