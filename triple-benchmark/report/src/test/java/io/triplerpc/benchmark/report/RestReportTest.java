package io.triplerpc.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parsing and the arithmetic of scripts/bench-rest.sh's report, on h2load output in its real format. */
class RestReportTest {

  @TempDir
  Path dir;

  /** h2load's summary, as version 1.52 prints it, with the given figures. */
  private static String output(double reqPerSecond, long done, long non2xx, long failed, String mean) {
    long ok = done - non2xx - failed;
    return String.format(Locale.ROOT, """
        starting benchmark...
        Application protocol: http/1.1

        finished in 20.00s, %.2f req/s, 6.81MB/s
        requests: %d total, %d started, %d done, %d succeeded, %d failed, 0 errored, 0 timeout
        status codes: %d 2xx, 0 3xx, %d 4xx, 0 5xx
        traffic: 20.44MB (21432015) total, 4.32MB (4530105) headers (space savings 0.00%%), 23.71MB (24865243) data
                             min         max         mean         sd        +/- sd
        time for request:       92us     56.90ms     %7s      1.01ms    97.97%%
        """, reqPerSecond, done, done, done, done - failed, failed, ok, non2xx, mean);
  }

  /** A log of requests taking {@code times} µs, answered {@code status}, in a shuffled order (as h2load's threads write it). */
  private static String log(List<Long> times, int status) {
    List<Long> shuffled = new ArrayList<>(times);
    Collections.shuffle(shuffled, new Random(7));
    StringBuilder log = new StringBuilder();
    long start = 1_796_651_635_756_282L;
    for (long time : shuffled) {
      log.append(start++).append('\t').append(status).append('\t').append(time).append('\n');
    }
    return log.toString();
  }

  private void run(String contender, String request, int connections, int round, String output, String log)
      throws Exception {
    Path raw = Files.createDirectories(dir.resolve("raw"));
    String base = "h2load-" + contender + "-" + request + "-c" + connections + "-r" + round;
    Files.writeString(raw.resolve(base + ".txt"), output);
    if (log != null) {
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(raw.resolve(base + ".log.gz")))) {
        out.write(log.getBytes(StandardCharsets.US_ASCII));
      }
    }
  }

  private static List<Long> range(long from, long to) {
    List<Long> values = new ArrayList<>();
    for (long v = from; v <= to; v++) {
      values.add(v);
    }
    return values;
  }

  @Test
  void readsTheSummaryOfARealH2loadRun() throws Exception {
    String output;
    try (InputStream in = getClass().getResourceAsStream("/h2load/h2load-1.52-h1.txt")) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    H2loadRun run = H2loadRun.parse(output, null);
    assertNotNull(run);
    assertEquals(22395.00, run.requestsPerSecond(), 1e-9);
    assertEquals(67185, run.done());
    assertEquals(67185, run.succeeded());
    assertEquals(0, run.failed());
    assertEquals(0, run.non2xx());
    assertEquals(712, run.meanMicros(), 1e-9);
    assertTrue(run.clean());
    assertNull(run.percentileMicros(99), "no log, no percentiles");
  }

  @Test
  void outputWithoutASummaryIsNoRun() throws Exception {
    assertNull(H2loadRun.parse("starting benchmark...\nNo protocol negotiated. Exiting...\n", null));
  }

  @Test
  void readsH2loadsTimesInEachUnit() {
    assertEquals(92, H2loadRun.micros("92us"), 1e-9);
    assertEquals(1010, H2loadRun.micros("1.01ms"), 1e-9);
    assertEquals(2_500_000, H2loadRun.micros("2.5s"), 1e-9);
  }

  @Test
  void percentilesAreNearestRanksOverTheLoggedTwoHundreds() throws Exception {
    // 1,000 answers of 1..1000 µs, and errors that must not count however slow they were.
    String log = log(range(1, 1000), 200) + log(List.of(900_000L), 503) + log(List.of(800_000L), -1);
    H2loadRun run = H2loadRun.parse(output(100, 1002, 1, 1, "500us"), new BufferedReader(new StringReader(log)));
    assertEquals(1000, run.latenciesMicros().length);
    assertEquals(500, run.percentileMicros(50));
    assertEquals(990, run.percentileMicros(99));
    assertEquals(999, run.percentileMicros(99.9));
    assertEquals(1000, run.percentileMicros(100));
    assertFalse(run.clean(), "a run with a failed request and a 4xx is not a result");
  }

  @Test
  void mediansOverRoundsAndRatiosToGrpcGateway() throws Exception {
    // Triple 100, 300, 200 req/s; grpc-gateway + grpc-java 50, 40, 60: medians 200 and 50, 4×.
    double[] triple = {100, 300, 200};
    double[] gateway = {50, 40, 60};
    for (int round = 1; round <= 3; round++) {
      long offset = round * 10L;
      run("triple", "get", 1, round, output(triple[round - 1], 1000, 0, 0, "300us"), log(range(1 + offset, 100 + offset), 200));
      run("gateway-grpc", "get", 1, round, output(gateway[round - 1], 1000, 0, 0, "900us"),
          log(range(101 + offset, 300 + offset), 200));
    }
    Files.writeString(dir.resolve("raw/order-r2.txt"), "gateway-grpc triple\n");
    RestReport report = RestReport.load(dir);
    RestReport.Case get1 = new RestReport.Case("get", 1);
    assertEquals(List.of(get1), report.cases());
    assertEquals(List.of("triple", "gateway-grpc"), report.contenders());
    RestReport.Medians t = report.medians(get1, "triple");
    assertEquals(200, t.requestsPerSecond(), 1e-9);
    assertEquals(3, t.rounds());
    // p99 of each round's 100 answers (offset + 1 .. offset + 100) is offset + 99: 109, 119, 129 → 0.119 ms.
    assertEquals(0.119, t.p99Ms(), 1e-9);
    assertEquals(4.0, report.ratio(get1, "triple", "gateway-grpc", RestReport.Medians::requestsPerSecond), 1e-9);

    JsonNode json = new ObjectMapper().readTree(report.json());
    JsonNode ratios = json.get("cases").get(0).get("ratios");
    assertEquals(4.0, ratios.get("throughputTripleOverGatewayGrpc").asDouble(), 1e-9);
    // grpc-gateway's p99 over 200 answers (offset + 101 .. offset + 300): offset + 298 → 0.318 ms; 0.119 / 0.318.
    assertEquals(Math.round(0.119 / 0.318 * 1000) / 1000.0, ratios.get("p99TripleOverGatewayGrpc").asDouble(), 1e-9);
    assertTrue(ratios.get("throughputTripleOverGatewayTriple") == null, "a contender not run has no ratio");

    List<String> csv = report.csv().lines().toList();
    assertEquals(7, csv.size(), "a header and one line per run");
    // Round 2 ran grpc-gateway first; its answers took 121..320 µs: p50 220, p90 300, p99 318, p99.9 and max 320.
    assertTrue(csv.contains("get,1,gateway-grpc,2,1,1000,40.00,900.0,220,300,318,320,320,0,0"), String.join("\n", csv));
    String md = report.markdown("");
    assertTrue(md.contains("| GET, 1 connection | 4.00× | met |"), md);
  }

  @Test
  void aRunWithErrorsIsLeftOutOfTheMediansAndSaidSo() throws Exception {
    run("triple", "post", 16, 1, output(1000, 5000, 0, 0, "1ms"), log(range(1, 10), 200));
    run("triple", "post", 16, 2, output(9000, 5000, 4000, 0, "1ms"), log(range(1, 10), 200));
    run("gateway-grpc", "post", 16, 1, output(500, 5000, 0, 0, "2ms"), log(range(1, 10), 200));
    RestReport report = RestReport.load(dir);
    RestReport.Medians t = report.medians(new RestReport.Case("post", 16), "triple");
    assertEquals(1000, t.requestsPerSecond(), 1e-9, "the run answered with 4xx is not a figure");
    assertEquals(1, t.leftOut());
    assertTrue(report.markdown("").contains("1 run(s) of Triple (REST), POST, 16 connections, left out"));
  }

  @Test
  void theDocsSectionIsReplacedInPlaceAboveBenchShsPart() {
    String page = "# Benchmarks\n\nhand-written\n\n" + Report.MARKER + "\n\n## Latest run\n";
    String first = RestReport.replaceSection(page, "figures 1\n");
    assertTrue(first.indexOf("figures 1") < first.indexOf(Report.MARKER), "above the part bench.sh rewrites");
    assertTrue(first.startsWith("# Benchmarks\n\nhand-written\n\n" + RestReport.BEGIN));
    String second = RestReport.replaceSection(first, "figures 2\n");
    assertFalse(second.contains("figures 1"));
    assertEquals(first.replace("figures 1", "figures 2"), second);
  }
}
