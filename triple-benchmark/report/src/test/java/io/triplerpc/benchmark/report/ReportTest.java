package io.triplerpc.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

  @TempDir
  Path dir;

  private void thrpt(String benchmark, String contender, int round, double[] ops, double bytes) throws Exception {
    StringBuilder raw = new StringBuilder();
    for (double op : ops) {
      raw.append(raw.length() == 0 ? "" : ",").append(op);
    }
    String json = String.format(Locale.ROOT, """
        [{"benchmark": "x.%s", "mode": "thrpt",
          "primaryMetric": {"score": 1, "scoreUnit": "ops/s", "rawData": [[%s]]},
          "secondaryMetrics": {
            "gc.alloc.rate.norm": {"score": %f, "scoreUnit": "B/op", "rawData": [[%f]]},
            "gc.alloc.rate": {"score": 99999, "scoreUnit": "MB/sec", "rawData": [[99999]]},
            "server.cpu": {"score": 40.0, "scoreUnit": "us/op", "rawData": [[40.0]]}}}]
        """, benchmark, raw, bytes, bytes);
    Files.writeString(dir.resolve("raw").resolve("thrpt-" + benchmark + "-" + contender + "-r" + round + ".json"), json);
  }

  private void sample(String benchmark, String contender, double p50Micros, double p99Micros) throws Exception {
    String json = String.format(Locale.ROOT, """
        [{"benchmark": "x.%s", "mode": "sample",
          "primaryMetric": {"score": 1, "scoreUnit": "us/op",
            "scorePercentiles": {"50.0": %f, "99.0": %f, "99.9": %f}, "rawData": []},
          "secondaryMetrics": {}}]
        """, benchmark, p50Micros, p99Micros, p99Micros * 2);
    Files.writeString(dir.resolve("raw").resolve("sample-" + benchmark + "-" + contender + "-r1.json"), json);
  }

  @Test
  void mediansRatiosGoalsChartsAndTheDocsPage() throws Exception {
    Files.createDirectories(dir.resolve("raw"));
    Files.writeString(dir.resolve("machine.txt"), "command: scripts/bench.sh --quick\ncpus: 2\ncommit: abc123\n");
    // Two rounds: the median is over all five iterations (10, 20, 30, 1000, 40 -> 30).
    thrpt("getUser", "triple", 1, new double[] {10, 20, 30}, 4000);
    thrpt("getUser", "triple", 2, new double[] {1000, 40}, 4000);
    thrpt("getUser", "grpc", 1, new double[] {20, 20, 20}, 8000);
    thrpt("getUser", "dubbo", 1, new double[] {15, 15, 15}, 17000);
    // The ablation compares with the all-on run next to it, not with the main one.
    thrpt("getUser", "triple-allOn", 1, new double[] {20, 20, 20}, 4000);
    thrpt("getUser", "triple-flushPerCommand", 1, new double[] {15, 15, 15}, 4000);
    sample("getUser", "triple", 1000, 2000);
    sample("getUser", "grpc", 1270, 2470);
    Files.writeString(dir.resolve("raw").resolve("h2load-triple-r1.txt"), "finished in 5.00s, 30000.00 req/s, 1MB/s\n");
    Files.writeString(dir.resolve("raw").resolve("h2load-netty-r1.txt"), "finished in 5.00s, 60000.00 req/s, 1MB/s\n");
    Path docs = dir.resolve("docs");
    Files.createDirectories(docs);
    Files.writeString(docs.resolve("benchmarks.md"), "# Benchmarks\n\nHand-written notes.\n\n" + Report.MARKER + "\nold tables\n");

    Report.main(new String[] {dir.toString(), "--docs", docs.toString()});

    JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
    JsonNode triple = summary.path("benchmarks").path("getUser").path("triple");
    assertEquals(30.0, triple.path("ops_per_s").asDouble());
    assertEquals(5, triple.path("iterations").asInt());
    assertEquals(4000.0, triple.path("bytes_per_call").asDouble());
    assertEquals(1.0, triple.path("p50_ms").asDouble(), 1e-9);
    assertEquals(2.0, triple.path("p99_ms").asDouble(), 1e-9);
    assertEquals(40.0, triple.path("server_cpu_us_per_call").asDouble());
    assertEquals(30000.0, summary.path("h2load_req_per_s").path("triple").asDouble());
    JsonNode goals = summary.path("goals");
    assertEquals("1.50×", goals.path("getUser vs grpc-java").path("measured").asText());
    assertEquals("met", goals.path("getUser vs grpc-java").path("met").asText());
    assertEquals("met", goals.path("getUser vs Dubbo").path("met").asText());
    assertEquals("0.81×", goals.path("getUser p99 vs grpc-java").path("measured").asText());
    assertEquals("missed", goals.path("getUser p99 vs grpc-java").path("met").asText());
    assertEquals("met", goals.path("getUser client bytes/call vs grpc-java").path("met").asText());
    assertEquals("missed", goals.path("h2load Triple server vs minimal Netty").path("met").asText());
    assertEquals("unknown", goals.path("listUserLarge vs grpc-java").path("met").asText());

    String page = Files.readString(docs.resolve("benchmarks.md"));
    assertTrue(page.startsWith("# Benchmarks\n\nHand-written notes.\n\n" + Report.MARKER), page);
    assertTrue(!page.contains("old tables"), page);
    assertTrue(page.contains("| getUser | 30 | 20 | 15 | 1.50× | 2.00× |"), page);
    assertTrue(page.contains("scripts/bench.sh --quick"), page);
    assertTrue(page.contains("| getUser | 20 | 15 (-25%) |"), page);
    for (String png : List.of(Charts.THROUGHPUT, Charts.LATENCY, Charts.ABLATION, Charts.H2LOAD)) {
      assertTrue(Files.size(docs.resolve("images").resolve(png)) > 1000, png);
      assertTrue(Files.exists(dir.resolve(png)), png);
    }
  }
}
