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
}
