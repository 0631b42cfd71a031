package io.triplerpc.conformance;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Connect conformance suite ({@code connectconformance} v1.0.5) in client mode, gRPC, gRPC-Web and Connect,
 * over HTTP/2 and HTTP/1.1, in protobuf and JSON, Connect GET included:
 * its reference
 * servers answer, in every way the cases script, the calls Triple's client makes through a service
 * proxy ({@link ClientUnderTest}), with the features of {@code config/client.yaml} and no list of
 * cases allowed to fail. Skipped where the runner and Go are missing.
 */
class ClientConformanceTest {

  /** The cases config/client.yaml selects. */
  private static final int CASES = 4814;

  @TempDir
  Path output;

  /** The cases config/client-h3.yaml selects over HTTP/3 (its HTTP/2 ones, which {@link #CASES} has, skipped). */
  private static final int HTTP3_CASES = 918;

  @Test
  void everyCaseOfTheClaimedFeaturesPasses() throws Exception {
    ServerConformanceTest.run("client", Path.of("config/client.yaml"), ClientUnderTest.class, CASES, output);
  }

  @Test
  void everyCaseOverHttp3Passes() throws Exception {
    ServerConformanceTest.run("client", Path.of("config/client-h3.yaml"), ClientUnderTest.class, HTTP3_CASES, output,
        List.of("--skip", "**/HTTPVersion:2/**"));
  }
}
