package io.triplerpc.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    h2load(dir, "h2load-triple-m32-r1.txt", 24000);
    h2load(dir, "h2load-netty-m32-r1.txt", 40000);
    h2load(dir, "h2load-triple-m100-r1.txt", 30000);
    h2load(dir, "h2load-netty-m100-r1.txt", 60000);
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
    assertEquals(24000.0, summary.path("h2load_req_per_s_32").path("triple").asDouble());
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
    assertTrue(page.contains("| Triple | 24,000 | 60% | 30,000 | 50% |"), page);
    for (String png : List.of(Charts.THROUGHPUT, Charts.LATENCY, Charts.ABLATION, Charts.H2LOAD)) {
      assertTrue(Files.size(docs.resolve("images").resolve(png)) > 1000, png);
      assertTrue(Files.exists(dir.resolve(png)), png);
    }
  }

  /**
   * What h2load prints for a timed run ({@code -c 1 -t 1 -m 100 -D 5}) with the rate given;
   * the report reads the "finished in" line.
   */
  private static void h2load(Path folder, String fileName, double reqPerSecond) throws Exception {
    String output = String.format(Locale.ROOT, """
        starting benchmark...
        spawning thread #0: 1 total client(s). Timing-based test with 5s of main duration
        Warm-up started for thread #0.
        progress: 100%% of clients started
        Warm-up phase is over for thread #0.
        Main benchmark duration is started for thread #0.
        Main benchmark duration is over for thread #0. Stopping all clients.
        Stopped all clients for thread #0

        finished in 5.00s, %.2f req/s, 1MB/s
        requests: %d total, %d started, %d done, %d succeeded, 0 failed, 0 errored, 0 timeout
        status codes: %d 2xx, 0 3xx, 0 4xx, 0 5xx
        traffic: 12.19MB (12781626) total, 1.56MB (1640100) headers (space savings 92.86%%), 1.57MB (1650000) data
                             min         max         mean         sd        +/- sd
        time for request:      701us     12.63ms      2.07ms       601us    79.81%%
        time for connect:      123us       123us       123us         0us   100.00%%
        time to 1st byte:     3.14ms      3.14ms      3.14ms         0us   100.00%%
        req/s           :   %.2f    %.2f    %.2f        0.00   100.00%%
        """, reqPerSecond, (long) (reqPerSecond * 5), (long) (reqPerSecond * 5) + 100, (long) (reqPerSecond * 5),
        (long) (reqPerSecond * 5), (long) (reqPerSecond * 5), reqPerSecond, reqPerSecond, reqPerSecond);
    Files.createDirectories(folder.resolve("raw"));
    Files.writeString(folder.resolve("raw").resolve(fileName), output);
  }

  /** Each server at 32 and 100 streams, three rounds: the median of the rounds, per stream count. */
  @Test
  void h2loadAtBothStreamCountsGivesMediansFractionsAndAChart() throws Exception {
    double[] triple32 = {70000, 90000, 80000};
    double[] triple100 = {100000, 10000, 95000};
    double[] netty32 = {100000, 100000, 100000};
    double[] netty100 = {120000, 125000, 130000};
    for (int round = 1; round <= 3; round++) {
      h2load(dir, "h2load-triple-m32-r" + round + ".txt", triple32[round - 1]);
      h2load(dir, "h2load-triple-m100-r" + round + ".txt", triple100[round - 1]);
      h2load(dir, "h2load-netty-m32-r" + round + ".txt", netty32[round - 1]);
      h2load(dir, "h2load-netty-m100-r" + round + ".txt", netty100[round - 1]);
    }
    // The direct executor at 32 streams only; grpc-java's run at 100 streams failed (no rate in its output).
    h2load(dir, "h2load-triple-direct-m32-r1.txt", 95000);
    h2load(dir, "h2load-grpc-m32-r1.txt", 40000);
    Files.writeString(dir.resolve("raw").resolve("h2load-grpc-m100-r1.txt"), "starting benchmark...\nconnect() failed\n");
    Path docs = dir.resolve("docs");
    Files.createDirectories(docs);

    Report.main(new String[] {dir.toString(), "--docs", docs.toString()});

    JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
    assertEquals(95000.0, summary.path("h2load_req_per_s").path("triple").asDouble());
    assertEquals(125000.0, summary.path("h2load_req_per_s").path("netty").asDouble());
    assertTrue(summary.path("h2load_req_per_s").path("grpc").isMissingNode(), summary.toString());
    assertTrue(summary.path("h2load_req_per_s").path("triple-direct").isMissingNode(), summary.toString());
    assertEquals(80000.0, summary.path("h2load_req_per_s_32").path("triple").asDouble());
    assertEquals(95000.0, summary.path("h2load_req_per_s_32").path("triple-direct").asDouble());
    assertEquals(40000.0, summary.path("h2load_req_per_s_32").path("grpc").asDouble());
    String page = Files.readString(docs.resolve("benchmarks.md"));
    assertTrue(page.contains("`h2load -c 1 -t 1 -m 32` and `-m 100` (one connection, 32 and 100 streams in flight"), page);
    assertTrue(page.contains("| server | 32 streams, req/s | of the minimal Netty server "
        + "| 100 streams, req/s | of the minimal Netty server |\n|---|---:|---:|---:|---:|\n"), page);
    assertTrue(page.contains("| Triple | 80,000 | 80% | 95,000 | 76% |"), page);
    assertTrue(page.contains("| Triple, direct executor | 95,000 | 95% | – | – |"), page);
    assertTrue(page.contains("| grpc-java 1.85.1 | 40,000 | 40% | – | – |"), page);
    assertTrue(page.contains("| minimal Netty server | 100,000 | 100% | 125,000 | 100% |"), page);
    assertTrue(!page.contains("| Dubbo 3.3.6 |"), page);
    // Met at 32 streams (0.80×), missed at 100 (0.76×): missed.
    assertTrue(page.contains("| h2load Triple server vs minimal Netty | ≥ 0.80× "
        + "| 32 streams: 0.80×, 100 streams: 0.76× (missed at 100 streams) | **missed** |"), page);
    // Met at 32 streams (0.95×), not measured at 100: not known to be met.
    assertTrue(page.contains("| h2load Triple server, direct executor, vs minimal Netty | ≥ 0.90× "
        + "| 32 streams: 0.95×, 100 streams: – | not measured |"), page);
    assertTrue(Files.size(docs.resolve("images").resolve(Charts.H2LOAD)) > 1000);
  }

  /** Results folders from before the two stream counts: {@code h2load-<server>-r<round>.txt}, 100 streams. */
  @Test
  void oldH2loadFileNamesAreReadAs100Streams() throws Exception {
    h2load(dir, "h2load-triple-r1.txt", 47000);
    h2load(dir, "h2load-triple-r2.txt", 48000);
    h2load(dir, "h2load-triple-r3.txt", 49000);
    h2load(dir, "h2load-triple-direct-r1.txt", 76000);
    h2load(dir, "h2load-netty-r1.txt", 80000);

    Report.main(new String[] {dir.toString()});

    JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
    assertEquals(48000.0, summary.path("h2load_req_per_s").path("triple").asDouble());
    assertEquals(76000.0, summary.path("h2load_req_per_s").path("triple-direct").asDouble());
    assertEquals(80000.0, summary.path("h2load_req_per_s").path("netty").asDouble());
    assertEquals(0, summary.path("h2load_req_per_s_32").size(), summary.toString());
    String page = Files.readString(dir.resolve("summary.md"));
    // Only the stream count measured: the table and command of such a folder, as before.
    assertTrue(page.contains("`h2load -c 1 -t 1 -m 100` (one connection, 100 streams in flight"), page);
    assertTrue(page.contains("| server | 100 streams, req/s | of the minimal Netty server |\n|---|---:|---:|\n"
        + "| Triple | 48,000 | 60% |\n| Triple, direct executor | 76,000 | 95% |\n"
        + "| minimal Netty server | 80,000 | 100% |\n"), page);
    JsonNode goals = summary.path("goals");
    // Missed at 100 streams is missed whatever 32 would give; met at 100 alone is not known.
    assertEquals("missed", goals.path("h2load Triple server vs minimal Netty").path("met").asText());
    assertEquals("32 streams: –, 100 streams: 0.60× (missed at 100 streams)",
        goals.path("h2load Triple server vs minimal Netty").path("measured").asText());
    assertEquals("unknown", goals.path("h2load Triple server, direct executor, vs minimal Netty").path("met").asText());
    assertTrue(Files.size(dir.resolve(Charts.H2LOAD)) > 1000);
  }

  /** An old folder re-measured with {@code bench.sh --only h2load}: a round named both ways counts once, new name. */
  @Test
  void newH2loadFileNameReplacesTheOldNameOfTheSameRound() throws Exception {
    h2load(dir, "h2load-triple-r1.txt", 10000);
    h2load(dir, "h2load-triple-r2.txt", 20000);
    h2load(dir, "h2load-triple-m100-r1.txt", 30000);
    h2load(dir, "h2load-triple-m32-r1.txt", 25000);

    Results results = Results.load(dir);

    // 100 streams: round 1 from the new name (30,000, not 10,000), round 2 from the old one: median 25,000.
    assertEquals(25000.0, results.h2loadRate("triple", 100).getAsDouble());
    assertEquals(25000.0, results.h2loadRate("triple", 32).getAsDouble());
    assertEquals(List.of("triple"), results.h2loadServers(100));
  }

  private Goals.Goal h2loadGoal(String measure, String server, double at32, double at100) throws Exception {
    Path folder = Files.createTempDirectory(dir, server);
    h2load(folder, "h2load-netty-m32-r1.txt", 100000);
    h2load(folder, "h2load-netty-m100-r1.txt", 100000);
    h2load(folder, "h2load-" + server + "-m32-r1.txt", at32);
    h2load(folder, "h2load-" + server + "-m100-r1.txt", at100);
    return Goals.evaluate(Results.load(folder)).stream().filter(goal -> goal.measure().equals(measure))
        .findFirst().orElseThrow();
  }

  @Test
  void h2loadGoalsAreMetOnlyWhenMetAtBothStreamCounts() throws Exception {
    String defaultExecutor = "h2load Triple server vs minimal Netty";
    String direct = "h2load Triple server, direct executor, vs minimal Netty";

    Goals.Goal both = h2loadGoal(defaultExecutor, "triple", 80000, 85000);
    assertEquals(true, both.met());
    assertEquals("32 streams: 0.80×, 100 streams: 0.85×", both.measured());
    assertEquals("≥ 0.80×", both.goal());

    Goals.Goal missedAt32 = h2loadGoal(defaultExecutor, "triple", 79000, 85000);
    assertEquals(false, missedAt32.met());
    assertEquals("32 streams: 0.79×, 100 streams: 0.85× (missed at 32 streams)", missedAt32.measured());

    Goals.Goal missedAt100 = h2loadGoal(direct, "triple-direct", 92000, 89000);
    assertEquals(false, missedAt100.met());
    assertEquals("32 streams: 0.92×, 100 streams: 0.89× (missed at 100 streams)", missedAt100.measured());

    Goals.Goal missedAtBoth = h2loadGoal(direct, "triple-direct", 85000, 88000);
    assertEquals(false, missedAtBoth.met());
    assertEquals("32 streams: 0.85×, 100 streams: 0.88× (missed at 32 and 100 streams)", missedAtBoth.measured());

    // The default executor's target does not apply to the direct executor, nor the other way round.
    Goals.Goal directMet = h2loadGoal(direct, "triple-direct", 90000, 95000);
    assertEquals(true, directMet.met());
    Goals.Goal directUnknownForDefault = h2loadGoal(defaultExecutor, "triple-direct", 90000, 95000);
    assertNull(directUnknownForDefault.met());
    assertEquals("–", directUnknownForDefault.measured());
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

  @Test
  void aFileWithOtherBenchmarksOfTheSameMethodCountsOnlyTheSuites() throws Exception {
    Files.createDirectories(dir.resolve("raw"));
    String json = """
        [{"benchmark": "io.triplerpc.benchmark.triple.FeatureCostBenchmark.getUser", "mode": "thrpt",
          "params": {"feature": "tls"}, "primaryMetric": {"score": 1, "scoreUnit": "ops/s", "rawData": [[10, 10, 10]]},
          "secondaryMetrics": {}},
         {"benchmark": "io.triplerpc.benchmark.triple.TripleBenchmark.getUser", "mode": "thrpt",
          "primaryMetric": {"score": 1, "scoreUnit": "ops/s", "rawData": [[100, 200, 300]]},
          "secondaryMetrics": {}}]
        """;
    Files.writeString(dir.resolve("raw").resolve("thrpt-getUser-triple-r1.json"), json);
    assertEquals(200.0, Results.load(dir).ops("getUser", "triple"));
  }

  @Test
  void sameRatesForEveryServerGetATableOfTheirOwnWithRatiosToGrpcJava() throws Exception {
    Files.createDirectories(dir.resolve("raw"));
    ghz("grpc", "max", 1, 0, 1600, 2, 0);
    ghz("grpc", "50", 1, 800, 800, 2, 0);
    ghz("grpc", "same50", 1, 800, 800, 2, 0);
    ghz("triple", "max", 1, 0, 3000, 1, 0);
    ghz("triple", "50", 1, 1500, 1500, 3, 0);
    ghz("triple", "same50", 1, 800, 800, 1, 0);
    ghz("triple", "same75", 1, 1200, 1200, 1, 0);
    Results results = Results.load(dir);

    String markdown = Report.markdown(results, "");
    assertTrue(markdown.contains("| Triple | 50% of grpc-java's max | 800 | 800 | 1.00 | 1.00 | 4.00 | 8.00 | 0 | 0.50× |"),
        markdown);
    assertTrue(markdown.contains("| grpc-java 1.85.1 | 50% of grpc-java's max | 800 | 800 | 2.00 | 2.00 | 8.00 | 16.00 | 0 | 1.00× |"),
        markdown);
    assertTrue(markdown.contains("| Triple | 75% of grpc-java's max | 1,200 | 1,200 | 1.00 | 1.00 | 4.00 | 8.00 | 0 | – |"),
        markdown);
    // The goal stays the issue's: each server at its own maximum's share.
    assertTrue(markdown.contains("| Triple | 50% | 1,500 | 1,500 | 3.00 |"), markdown);
    JsonNode triple = new ObjectMapper().readTree(Report.summaryJson(results)).path("ghz_open_loop").path("triple");
    assertEquals(4.0, triple.path("50%_of_grpc_max").path("p99_ms").asDouble());
    assertEquals(12.0, triple.path("50%").path("p99_ms").asDouble());

    Files.delete(dir.resolve("raw").resolve("ghz-triple-same50-r1.json.gz"));
    Files.delete(dir.resolve("raw").resolve("ghz-triple-same75-r1.json.gz"));
    Files.delete(dir.resolve("raw").resolve("ghz-grpc-same50-r1.json.gz"));
    assertTrue(!Report.markdown(Results.load(dir), "").contains("The same rates for every server"),
        "no table without same-rate runs");
  }

  /**
   * A sweep file as JMH 1.37 writes it in sample mode (the fields of a real {@code -bm sample} run's JSON):
   * the JMH threads, the params as strings, the mean ({@code score}) and percentiles of the sampled calls
   * in {@code unit}, their histogram per iteration, and JMH's per-iteration percentiles as secondary metrics.
   */
  private static void sweepFile(Path folder, String dimension, int value, String contender, int round, int threads,
      int payload, int connections, String unit, double mean, double p50, double p99) throws Exception {
    String json = String.format(Locale.ROOT, """
        [{"jmhVersion": "1.37", "benchmark": "io.triplerpc.benchmark.%s.SweepBenchmark.echo", "mode": "sample",
          "threads": %d, "forks": 1, "jvm": "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
          "jvmArgs": ["-Xms1g", "-Xmx1g"], "jdkVersion": "17.0.15", "vmName": "OpenJDK 64-Bit Server VM",
          "vmVersion": "17.0.15+6-Debian-1deb12u1", "warmupIterations": 1, "warmupTime": "5 s", "warmupBatchSize": 1,
          "measurementIterations": 2, "measurementTime": "3 s", "measurementBatchSize": 1,
          "params": {"connections": "%d", "payload": "%d"},
          "primaryMetric": {"score": %s, "scoreError": %s, "scoreConfidence": [%s, %s],
            "scorePercentiles": {"0.0": %s, "50.0": %s, "90.0": %s, "95.0": %s, "99.0": %s, "99.9": %s,
              "99.99": %s, "99.999": %s, "99.9999": %s, "100.0": %s},
            "scoreUnit": "%s", "rawDataHistogram": [[[[%s, 980], [%s, 20]], [[%s, 990], [%s, 10]]]]},
          "secondaryMetrics": {
            "p0.50": {"score": %s, "scoreError": "NaN", "scoreConfidence": ["NaN", "NaN"], "scoreUnit": "%s",
              "rawData": [[%s, %s]]},
            "p0.99": {"score": %s, "scoreError": "NaN", "scoreConfidence": ["NaN", "NaN"], "scoreUnit": "%s",
              "rawData": [[%s, %s]]}}}]
        """, contender, threads, connections, payload, mean, mean / 100, mean * 0.99, mean * 1.01,
        p50 / 4, p50, p99 * 0.8, p99 * 0.9, p99, p99 * 2, p99 * 3, p99 * 3, p99 * 3, p99 * 3,
        unit, p50, p99, p50, p99, p50, unit, p50, p50, p99, unit, p99, p99);
    Files.createDirectories(folder.resolve("raw"));
    Files.writeString(folder.resolve("raw").resolve(
        "sweep-" + dimension + "-" + value + "-" + contender + "-r" + round + ".json"), json);
  }

  /** A sweep point around the base point bench.sh uses (32 threads, 10 B, one connection), in µs. */
  private static void sweep(Path folder, String dimension, int value, String contender, int round, double meanMicros,
      double p50Micros, double p99Micros) throws Exception {
    sweepFile(folder, dimension, value, contender, round, dimension.equals("threads") ? value : 32,
        dimension.equals("payload") ? value : 10, dimension.equals("connections") ? value : 1, "us/op",
        meanMicros, p50Micros, p99Micros);
  }

  /**
   * Every contender at threads 1, 4 and 32 (the base point, measured once), payload 1 MiB and connections 4;
   * Triple behind at threads 1 (ops/s vs grpc-java) and payload 1 MiB (p99 vs Dubbo). grpc-java's file at
   * one thread is in ms/op. Triple at 4 threads: three rounds.
   */
  private void sweepFolder(Path folder) throws Exception {
    sweep(folder, "threads", 1, "triple", 1, 50, 45, 90);
    sweepFile(folder, "threads", 1, "grpc", 1, 1, 10, 1, "ms/op", 0.04, 0.035, 0.1);
    sweep(folder, "threads", 1, "dubbo", 1, 80, 70, 200);
    // ops/s 40,000, 50,000 and 10,000: median 40,000; p50 90, 70, 350: 90; p99 300, 200, 900: 300.
    sweep(folder, "threads", 4, "triple", 1, 100, 90, 300);
    sweep(folder, "threads", 4, "triple", 2, 80, 70, 200);
    sweep(folder, "threads", 4, "triple", 3, 400, 350, 900);
    sweep(folder, "threads", 4, "grpc", 1, 200, 180, 600);
    sweep(folder, "threads", 4, "dubbo", 1, 250, 220, 800);
    sweep(folder, "threads", 32, "triple", 1, 400, 350, 1000);
    sweep(folder, "threads", 32, "grpc", 1, 800, 700, 2500);
    sweep(folder, "threads", 32, "dubbo", 1, 1000, 900, 3000);
    sweep(folder, "payload", 1048576, "triple", 1, 32000, 30000, 60000);
    sweep(folder, "payload", 1048576, "grpc", 1, 40000, 38000, 70000);
    sweep(folder, "payload", 1048576, "dubbo", 1, 35000, 33000, 50000);
    sweep(folder, "connections", 4, "triple", 1, 320, 300, 900);
    sweep(folder, "connections", 4, "grpc", 1, 640, 600, 2000);
    sweep(folder, "connections", 4, "dubbo", 1, 800, 750, 2600);
  }

  @Test
  void sweepsGiveLittlesLawMediansTablesJsonChartsAndTheGoal() throws Exception {
    sweepFolder(dir);
    Path docs = dir.resolve("docs");
    Files.createDirectories(docs);

    Report.main(new String[] {dir.toString(), "--docs", docs.toString()});

    Results results = Results.load(dir);
    assertEquals(List.of(1, 4, 32), List.copyOf(results.sweeps.get("threads").points().keySet()));
    // The base point, measured under threads, is on the payload and connections curves too.
    assertEquals(List.of(10, 1048576), List.copyOf(results.sweeps.get("payload").points().keySet()));
    assertEquals(List.of(1, 4), List.copyOf(results.sweeps.get("connections").points().keySet()));

    JsonNode sweeps = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).path("sweeps");
    JsonNode triple4 = sweeps.path("threads").path("4").path("triple");
    assertEquals(40000.0, triple4.path("ops_per_s").asDouble(), 1e-6);
    assertEquals(90.0, triple4.path("p50_us").asDouble(), 1e-6);
    assertEquals(300.0, triple4.path("p99_us").asDouble(), 1e-6);
    // Little's law in any unit: 1 thread / 0.04 ms = 25,000 calls/s; p99 0.1 ms = 100 µs.
    assertEquals(25000.0, sweeps.path("threads").path("1").path("grpc").path("ops_per_s").asDouble(), 1e-6);
    assertEquals(100.0, sweeps.path("threads").path("1").path("grpc").path("p99_us").asDouble(), 1e-6);
    assertEquals(40000.0, sweeps.path("payload").path("10").path("grpc").path("ops_per_s").asDouble(), 1e-6);
    assertEquals(32000.0, sweeps.path("connections").path("1").path("dubbo").path("ops_per_s").asDouble(), 1e-6);
    assertEquals(1000.0, sweeps.path("payload").path("1048576").path("triple").path("ops_per_s").asDouble(), 1e-6);
    assertEquals(List.of("1", "4"), fieldNames(sweeps.path("connections")));

    String page = Files.readString(docs.resolve("benchmarks.md"));
    assertTrue(page.contains("ops/s = T / mean latency"), page);
    // A folder of sweeps alone shows no empty tables of the phases it did not run.
    assertFalse(page.contains("### Throughput"), page);
    assertFalse(page.contains("### Server ceiling: h2load"), page);
    assertTrue(page.contains("#### Client threads (payload 10 B, 1 connection)\n\n"
        + "![ops/s against client threads](images/bench-sweep-threads-ops.png)\n"
        + "![p99 against client threads](images/bench-sweep-threads-p99.png)\n\n"
        + "| threads | Triple ops/s | Triple p99 µs | grpc-java ops/s | grpc-java p99 µs "
        + "| Dubbo ops/s | Dubbo p99 µs "
        + "| ops/s Triple / grpc-java | ops/s Triple / Dubbo | p99 Triple / grpc-java | p99 Triple / Dubbo |\n"
        + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        + "| 1 | 20,000 | 90 | 25,000 | 100 | 12,500 | 200 | 0.80× | 1.60× | 0.90× | 0.45× |\n"
        + "| 4 | 40,000 | 300 | 20,000 | 600 | 16,000 | 800 | 2.00× | 2.50× | 0.50× | 0.38× |\n"
        + "| 32 | 80,000 | 1,000 | 40,000 | 2,500 | 32,000 | 3,000 | 2.00× | 2.50× | 0.40× | 0.33× |\n"), page);
    assertTrue(page.contains("#### Payload (32 client threads, 1 connection)"), page);
    assertTrue(page.contains(
        "| 10 B | 80,000 | 1,000 | 40,000 | 2,500 | 32,000 | 3,000 | 2.00× | 2.50× | 0.40× | 0.33× |\n"
        + "| 1 MiB | 1,000 | 60,000 | 800 | 70,000 | 914 | 50,000 | 1.25× | 1.09× | 0.86× | 1.20× |\n"), page);
    assertTrue(page.contains("#### Connections (32 client threads, payload 10 B)"), page);
    assertTrue(page.contains(
        "| 4 | 100,000 | 900 | 50,000 | 2,000 | 40,000 | 2,600 | 2.00× | 2.50× | 0.45× | 0.35× |"), page);
    // Five distinct points (the base point counts once), two behind: each named, with what it misses.
    assertTrue(page.contains("| " + Goals.SWEEPS + " | ops/s above, p99 below both | ahead at 3 of 5 points; "
        + "behind at threads 1 (ops/s vs grpc-java), payload 1 MiB (p99 vs Dubbo) | **missed** |"), page);
    // p99 against threads spans 90 to 3,000 µs: a log axis; ops/s from 12,500 to 80,000: linear, from zero.
    List<Charts.Chart> charts = Charts.all(results);
    Charts.Chart threadsP99 = chart(charts, Charts.sweep("threads", "p99"));
    Charts.Chart threadsOps = chart(charts, Charts.sweep("threads", "ops"));
    assertTrue(threadsP99.chart().getStyler().isYAxisLogarithmic());
    assertTrue(!threadsOps.chart().getStyler().isYAxisLogarithmic());
    assertEquals(0.0, threadsOps.chart().getStyler().getYAxisMin());
    assertEquals(List.of("Triple", "grpc-java 1.85.1", "Dubbo 3.3.6"),
        List.copyOf(threadsOps.chart().getSeriesMap().keySet()));
    for (String dimension : Results.SWEEP_DIMENSIONS) {
      for (String measure : List.of("ops", "p99")) {
        String png = Charts.sweep(dimension, measure);
        assertTrue(Files.size(docs.resolve("images").resolve(png)) > 1000, png);
        assertTrue(Files.size(dir.resolve(png)) > 1000, png);
      }
    }
  }

  private static Charts.Chart chart(List<Charts.Chart> charts, String fileName) {
    return charts.stream().filter(chart -> chart.fileName().equals(fileName)).findFirst().orElseThrow();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private Goals.Goal sweepGoal(Path folder) throws Exception {
    return Goals.evaluate(Results.load(folder)).stream().filter(goal -> goal.measure().equals(Goals.SWEEPS))
        .findFirst().orElseThrow();
  }

  @Test
  void sweepGoalIsMetOnlyWhenAheadOfBothAtEveryPointAndUnknownWhenAPeerIsMissing() throws Exception {
    for (String contender : List.of("triple", "grpc", "dubbo")) {
      double slower = contender.equals("triple") ? 1 : 1.5;
      sweep(dir, "threads", 1, contender, 1, 50 * slower, 40 * slower, 100 * slower);
      sweep(dir, "threads", 32, contender, 1, 400 * slower, 300 * slower, 1000 * slower);
      sweep(dir, "connections", 4, contender, 1, 300 * slower, 250 * slower, 800 * slower);
    }
    Goals.Goal ahead = sweepGoal(dir);
    assertEquals(true, ahead.met());
    assertEquals("ahead at 3 of 3 points", ahead.measured());

    // A tie is not ahead: grpc-java's p99 at connections 4 equal to Triple's.
    sweep(dir, "connections", 4, "grpc", 1, 450, 375, 800);
    Goals.Goal tie = sweepGoal(dir);
    assertEquals(false, tie.met());
    assertEquals("ahead at 2 of 3 points; behind at connections 4 (p99 vs grpc-java)", tie.measured());

    // Dubbo not measured at connections 4 (its run failed): not known, since no other point misses.
    sweep(dir, "connections", 4, "grpc", 1, 450, 375, 1200);
    Files.delete(dir.resolve("raw").resolve("sweep-connections-4-dubbo-r1.json"));
    Goals.Goal unknown = sweepGoal(dir);
    assertNull(unknown.met());
    assertEquals("ahead at 2 of 3 points; not all three measured at connections 4", unknown.measured());

    // The base point measured under connections too: that curve keeps its own run, threads keeps its own.
    sweep(dir, "connections", 1, "triple", 1, 320, 300, 900);
    Results results = Results.load(dir);
    assertEquals(100000.0, results.sweeps.get("connections").points().get(1).get("triple").opsPerSecond(), 1e-6);
    assertEquals(80000.0, results.sweeps.get("threads").points().get(32).get("triple").opsPerSecond(), 1e-6);
  }

  /** A folder without sweeps reports exactly as before: no section, no goal row, no JSON object, no charts. */
  @Test
  void aFolderWithoutSweepsIsReportedAsBefore() throws Exception {
    Files.createDirectories(dir.resolve("raw"));
    Files.writeString(dir.resolve("machine.txt"), "command: scripts/bench.sh --quick\ncpus: 2\n");
    thrpt("getUser", "triple", 1, new double[] {30}, 4000);
    thrpt("getUser", "grpc", 1, new double[] {20}, 8000);
    h2load(dir, "h2load-triple-m100-r1.txt", 30000);
    Results before = Results.load(dir);
    String markdown = Report.markdown(before, "");
    String json = Report.summaryJson(before);
    assertTrue(!markdown.contains("Sweeps"), markdown);
    assertTrue(!markdown.contains("Ablation"), "a run without ablations has no ablation section: " + markdown);
    assertTrue(Charts.all(before).stream().noneMatch(chart -> chart.fileName().equals(Charts.ABLATION)));
    assertTrue(!json.contains("sweep"), json);
    assertTrue(Charts.all(before).stream().noneMatch(chart -> chart.fileName().startsWith("bench-sweep-")));

    sweepFolder(dir);
    Results after = Results.load(dir);
    String withSweeps = Report.markdown(after, "");
    int section = withSweeps.indexOf("\n### Sweeps");
    assertTrue(section > 0, withSweeps);
    String goalRow = withSweeps.lines().filter(line -> line.startsWith("| " + Goals.SWEEPS + " |"))
        .findFirst().orElseThrow() + "\n";
    // Everything but the section and the row is as it was.
    assertEquals(markdown, withSweeps.substring(0, section).replace(goalRow, ""));
    ObjectNode withSweepsJson = (ObjectNode) new ObjectMapper().readTree(Report.summaryJson(after));
    withSweepsJson.remove("sweeps");
    ((ObjectNode) withSweepsJson.path("goals")).remove(Goals.SWEEPS);
    assertEquals(new ObjectMapper().readTree(json), withSweepsJson);
  }
}
