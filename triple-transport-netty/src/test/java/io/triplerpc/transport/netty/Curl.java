package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real curl binary, as a client in tests; a test that needs it is skipped where it is missing. */
final class Curl {

  /** What curl exited with, and what it wrote to stdout and stderr together. */
  record Result(int exitCode, String output) {}

  private Curl() {}

  /** Runs {@code curl -sS --max-time 10} with {@code arguments}. */
  static Result run(String... arguments) throws IOException, InterruptedException {
    return run(List.of(arguments));
  }

  static Result run(List<String> arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
    command.addAll(arguments);
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, "curl is not installed");
      throw e;
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(20, TimeUnit.SECONDS), "curl finished");
    return new Result(process.exitValue(), output);
  }
}
