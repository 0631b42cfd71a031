package io.triplerpc.benchmark.registry;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The harness runs end to end on a tiny shape and checks its own directory state; no timing is judged. */
class RegistryScaleSmokeTest {

  @Test
  void tinySeedRunsAndEndsWithTheSummaryLine() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      RegistryScale.main(new String[] {"--apps", "3", "--services", "4", "--instances", "200", "--changes", "9",
          "--resync", "5000"});
    } finally {
      System.setOut(original);
    }
    String[] lines = captured.toString(StandardCharsets.UTF_8).trim().split("\n");
    String last = lines[lines.length - 1];
    // Its first four keys are a contract (scripts and docs read them); more may follow.
    assertTrue(last.matches("retained_heap_mb=\\d+ alloc_per_change_bytes=\\d+ change_p99_ms=[0-9.]+ resync_1m_ms=\\d+"
        + "( [a-z_0-9]+=[0-9.]+)*"), last);
    assertTrue(last.contains(" resync_instances=5000 "), last);
    assertTrue(lines[1].contains("2,400 service-level addresses in 12 directories"), lines[1]);
  }
}
