package io.triplerpc.registry.internal;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What the registry logs while a test acts: slf4j-simple writes to System.err. */
final class Logged {

  private Logged() {}

  /** Runs {@code action} and returns what was logged meanwhile. */
  static String during(Runnable action) {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
