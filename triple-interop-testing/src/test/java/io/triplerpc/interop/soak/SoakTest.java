package io.triplerpc.interop.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The soak run of {@code scripts/soak.sh}, short: 60 s at 60 calls/s against the interop server in its
 * own JVM with Netty's leak detector at PARANOID, a sample every 10 s. No slope is asserted (a minute
 * says nothing about growth per ten minutes); what must hold in any run does: every call ended as it
 * asked, the server reported no leak, and the series, chart and summary were written.
 */
class SoakTest {

  @Test
  @Timeout(240)
  void aMinuteOfMixedLoadEndsEveryCallAsAskedAndLeaksNothing() throws Exception {
    Path out = Path.of("target", "soak-test");
    Soak.Config config = new Soak.Config(Duration.ofSeconds(60), Duration.ofSeconds(10), Duration.ofSeconds(10), 60,
        Duration.ofSeconds(5), 1024 * 1024, List.of("-Xmx256m", "-Dio.netty.leakDetection.level=paranoid"), out);
    Soak.Run run = Soak.run(config);
    SoakReport report = new SoakReport(run);
    report.write();
    String lines = String.join("\n", report.lines());

    assertTrue(report.unexpected.isEmpty(), "Calls ended in ways they did not ask for:\n" + lines);
    assertEquals(0, run.serverLeaks(), "The server reported leaks; see " + out.resolve("server.log") + "\n" + lines);
    assertEquals(0, run.leakLines(), "The server's log has LEAK: lines; see " + out.resolve("server.log"));
    assertEquals(6, run.samples().size(), lines);
    // Every kind of ending the workload asks for happened (about 60 of each cancel and deadline a minute).
    assertTrue(report.asked.keySet().containsAll(Set.of("CANCELLED", "DEADLINE_EXCEEDED", "NOT_FOUND", "DATA_LOSS")),
        "Asked-for statuses seen: " + report.asked);
    assertTrue(report.calls > 3000, "Calls ended: " + report.calls + "\n" + lines);
    assertTrue(run.reconnects() >= 10, "Clients replaced: " + run.reconnects());

    List<String> csv = Files.readAllLines(out.resolve(SoakReport.CSV));
    assertEquals(1 + 6, csv.size(), "soak.csv: a header and one line per sample");
    assertTrue(csv.get(0).startsWith("minute,heap_after_gc_mb,alloc_direct_mb,"), csv.get(0));
    assertTrue(Files.size(out.resolve(SoakReport.CHART)) > 10_000, "soak.png was drawn");
    List<String> summary = Files.readAllLines(out.resolve(SoakReport.SUMMARY));
    assertTrue(summary.get(summary.size() - 1).startsWith("soak result="), summary.get(summary.size() - 1));
  }
}
