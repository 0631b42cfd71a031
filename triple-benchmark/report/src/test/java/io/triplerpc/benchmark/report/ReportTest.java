package io.triplerpc.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
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

  /** A real ghz report (bench.sh's open-loop command, 200 calls/s for 1 s against Triple's server), as a stream. */
  private static InputStream ghzSample(String name) {
    return ReportTest.class.getResourceAsStream("/ghz/" + name);
  }

  @Test
  void ghzReportGivesGhzOwnPercentilesAndTheTailItStopsBefore() throws Exception {
    JsonNode ghz;
    try (InputStream in = ghzSample("open-loop-200.json")) {
      ghz = new ObjectMapper().readTree(in);
    }
    GhzRun run;
    try (InputStream in = ghzSample("open-loop-200.json")) {
      run = GhzRun.parse(in);
    }
    assertEquals(200.0, run.targetRate());
    assertEquals(ghz.path("rps").asDouble(), run.achievedRate());
    assertEquals(200, run.calls());
    assertEquals(0, run.errors());
    for (JsonNode percentile : ghz.path("latencyDistribution")) {
      double expected = percentile.path("latency").asLong() / 1e6;
      switch (percentile.path("percentage").asInt()) {
        case 50 -> assertEquals(expected, run.p50(), 1e-9, "p50");
        case 90 -> assertEquals(expected, run.p90(), 1e-9, "p90");
        case 99 -> assertEquals(expected, run.p99(), 1e-9, "p99");
        default -> { }
      }
    }
    // 200 calls: p99.9 is the slowest one, which ghz reports apart.
    assertEquals(ghz.path("slowest").asLong() / 1e6, run.p999(), 1e-9);
  }

  @Test
  void ghzCallsThatFailedAreErrorsWithoutLatencies() throws Exception {
    GhzRun run;
    try (InputStream in = ghzSample("unimplemented.json")) {
      run = GhzRun.parse(in);
    }
    assertEquals(10, run.calls());
    assertEquals(10, run.errors());
    assertNull(run.p50());
    assertNull(run.p999());
  }

  /**
   * A ghz-shaped report: 1,000 calls, 980 at {@code fast} ms, 15 at 4× and 5 at 8× (so p50 and p90 are
   * {@code fast}, p99 4× and p99.9 8×, whatever the rank rounding), {@code errors} more that failed.
   */
  private void ghz(String server, String load, int round, int rps, double achieved, double fast, int errors)
      throws Exception {
    StringBuilder details = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      double millis = i < 980 ? fast : i < 995 ? 4 * fast : 8 * fast;
      details.append(details.length() == 0 ? "" : ",")
          .append(String.format(Locale.ROOT, "{\"latency\":%d,\"error\":\"\",\"status\":\"OK\"}", (long) (millis * 1e6)));
    }
    for (int i = 0; i < errors; i++) {
      details.append(",{\"latency\":5,\"error\":\"rpc error: code = Unavailable\",\"status\":\"Unavailable\"}");
    }
    String json = String.format(Locale.ROOT, """
        {"date":"2026-11-26T19:47:37Z","options":{"call":"triple.benchmark.UserService.getUser",%s"async":true},
         "count":%d,"total":5000000000,"rps":%f,"errorDistribution":{},
         "statusCodeDistribution":{"OK":1000%s},"latencyDistribution":null,"histogram":[],"details":[%s]}
        """, rps == 0 ? "" : "\"rps\":" + rps + ",", 1000 + errors, achieved,
        errors == 0 ? "" : ",\"Unavailable\":" + errors, details);
    Path file = dir.resolve("raw").resolve("ghz-" + server + "-" + load + "-r" + round + ".json.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  @Test
  void openLoopTableGoalAndChartFromGhzReports() throws Exception {
    Files.createDirectories(dir.resolve("raw"));
    // Two rounds of Triple's maximum: achieved rates 1,000 and 3,000 (median 2,000), errors summed.
    ghz("triple", "max", 1, 0, 1000, 2, 1);
    ghz("triple", "max", 2, 0, 3000, 2, 2);
    ghz("triple", "50", 1, 1000, 999, 1, 0);
    ghz("triple", "75", 1, 1500, 1490, 1, 0);
    ghz("grpc", "max", 1, 0, 1600, 2, 0);
    ghz("grpc", "50", 1, 800, 800, 2, 0);
    ghz("grpc", "75", 1, 1200, 1200, 4, 0);
    // ghz fell behind: 700 of 1,000 asked.
    ghz("grpc", "125", 1, 1000, 700, 50, 0);
    // The real sample, among the files bench.sh writes (Dubbo has no other load: no bar, no row).
    try (InputStream in = ghzSample("open-loop-200.json")) {
      Files.copy(in, dir.resolve("raw").resolve("ghz-dubbo-25-r1.json"));
    }
    Path docs = dir.resolve("docs");
    Files.createDirectories(docs);

    Report.main(new String[] {dir.toString(), "--docs", docs.toString()});

    String page = Files.readString(docs.resolve("benchmarks.md"));
    assertTrue(page.contains("| open-loop p99 at 50% and 75% load vs grpc-java | ≤ 0.50× | 0.50×, 0.25× | met |"), page);
    assertTrue(page.contains("| Triple | closed-loop max | – | 2,000 | 2.00 | 2.00 | 8.00 | 16.00 | 3 |"), page);
    assertTrue(page.contains("| Triple | 50% | 1,000 | 999 | 1.00 | 1.00 | 4.00 | 8.00 | 0 |"), page);
    assertTrue(page.contains("| grpc-java 1.85.1 | 75% | 1,200 | 1,200 | 4.00 | 4.00 | 16.00 | 32.00 | 0 |"), page);
    assertTrue(page.contains("| grpc-java 1.85.1 | 125% | 1,000 | 700 † | 50.00 | 50.00 | 200.00 | 400.00 | 0 |"), page);
    assertTrue(page.contains("| Dubbo 3.3.6 | 25% | 200 | 199 |"), page);
    assertTrue(!page.contains("| Dubbo 3.3.6 | 50% |"), page);
    JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
    JsonNode triple = summary.path("ghz_open_loop").path("triple");
    assertEquals(3, triple.path("closed_loop_max").path("errors").asInt());
    assertEquals(4.0, triple.path("50%").path("p99_ms").asDouble());
    assertEquals("met", summary.path("goals").path("open-loop p99 at 50% and 75% load vs grpc-java").path("met").asText());
    assertTrue(Files.size(docs.resolve("images").resolve(Charts.OPEN_LOOP)) > 1000);
  }
}
