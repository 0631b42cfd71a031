package io.triplerpc.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The curl command line, as this module's tests run it against a real server. */
final class Curl {

  private Curl() {}

  /** Runs curl with {@code arguments}; returns what it printed, whatever its exit status. */
  static String run(String... arguments) throws Exception {
    return run(false, arguments);
  }

  /** Runs curl with {@code arguments}, which must succeed; returns what it printed. */
  static String runOk(String... arguments) throws Exception {
    return run(true, arguments);
  }

  private static String run(boolean mustSucceed, String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
    command.addAll(List.of(arguments));
    Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
    if (mustSucceed) {
      assertEquals(0, curl.exitValue(), output);
    }
    return output;
  }
}
