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
  void aRunInWhichH2loadDroppedAConnectionIsNotAResult() throws Exception {
    // Dubbo 3.3.6 over HTTP/1.1: h2load could not parse an answer and dropped the connection, counting nothing
    // failed; the other connections went on.
    String output = output(800, 2466, 0, 0, "15ms").replace("starting benchmark...\n",
        "starting benchmark...\n[ERROR] HTTP parse error: (HPE_INVALID_CONSTANT) Expected HTTP/\n");
    H2loadRun run = H2loadRun.parse(output, null);
    assertEquals(0, run.failed());
    assertEquals(1, run.errors());
    assertFalse(run.clean());
    assertTrue(H2loadRun.parse(output(800, 2466, 0, 0, "15ms"), null).clean());
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
    assertTrue(csv.contains("get,1,gateway-grpc,2,1,1000,40.00,900.0,220,300,318,320,320,0,0,0"), String.join("\n", csv));
    String md = report.markdown("");
    assertTrue(md.contains(
        "| GET, 1 connection | Triple (REST, .proto) ÷ grpc-gateway + grpc-java | 4.00× | ≥ 2.0×: met |"), md);
    // The range is the lowest and highest req/s of the rounds; grpc-gateway's row holds Triple's ratio to it.
    assertTrue(md.contains("| GET, 1 connection | grpc-gateway + grpc-java | 50 | 40–60 |"), md);
    assertTrue(md.contains("| 4.00× | " + String.format(Locale.ROOT, "%.2f×", 0.119 / 0.318) + " |\n"), md);
  }

  @Test
  void dubboIsComparedWithTripleOnTheAnnotatedInterfaceAndTheGatewayWithTriplesRules() throws Exception {
    // One round of all five: Triple's rules 3,000 req/s, grpc-gateway 1,000 (3×, met); Triple on the annotated
    // interface 2,000, Dubbo 1,600 (1.25×: the 1.5× goal missed), with a p99 of 0.1 ms against 0.2 ms.
    run("triple", "get", 16, 1, output(3000, 1000, 0, 0, "300us"), log(range(1, 100), 200));
    run("triple-annotated", "get", 16, 1, output(2000, 1000, 0, 0, "400us"), log(range(1, 100), 200));
    run("dubbo", "get", 16, 1, output(1600, 1000, 0, 0, "500us"), log(range(101, 200), 200));
    run("gateway-grpc", "get", 16, 1, output(1000, 1000, 0, 0, "900us"), log(range(1, 100), 200));
    run("gateway-triple", "get", 16, 1, output(1500, 1000, 0, 0, "800us"), log(range(1, 100), 200));
    Files.writeString(dir.resolve("machine.txt"), """
        command: scripts/bench-rest.sh --rounds 1
        cpus: 2
        load before: 1.00 2.00 3.00
        load before round 1: 1.50 2.00 3.00
        load after round 1: 4.00 3.00 3.00
        load after: 4.00 3.00 3.00
        """);
    RestReport report = RestReport.load(dir);
    RestReport.Case get16 = new RestReport.Case("get", 16);
    assertEquals(List.of("triple", "triple-annotated", "dubbo", "gateway-grpc", "gateway-triple"), report.contenders());
    assertEquals(1.25, report.ratio(get16, "triple-annotated", "dubbo", RestReport.Medians::requestsPerSecond), 1e-9);

    JsonNode ratios = new ObjectMapper().readTree(report.json()).get("cases").get(0).get("ratios");
    assertEquals(1.25, ratios.get("throughputTripleAnnotatedOverDubbo").asDouble(), 1e-9);
    // p99 of 1..100 µs is 99, of 101..200 is 199.
    assertEquals(Math.round(99.0 / 199 * 1000) / 1000.0, ratios.get("p99TripleAnnotatedOverDubbo").asDouble(), 1e-9);
    assertEquals(3.0, ratios.get("throughputTripleOverGatewayGrpc").asDouble(), 1e-9);

    String md = report.markdown("");
    assertTrue(md.contains("| GET, 16 connections | Triple (REST, annotated) ÷ Dubbo 3.3.6 (REST, annotated) | 1.25× | "
        + "≥ 1.5×: **missed** | 0.50× | met |"), md);
    assertTrue(md.contains("| GET, 16 connections | Triple (REST, .proto) ÷ grpc-gateway + grpc-java | 3.00× | "
        + "≥ 2.0×: met |"), md);
    // Each row's ratio is to its like-for-like Triple: Dubbo's to the annotated one, the gateways' to the rules.
    assertTrue(md.contains("| GET, 16 connections | Dubbo 3.3.6 (REST, annotated) | 1,600 | 1,600–1,600 |"), md);
    assertTrue(md.lines().anyMatch(l -> l.startsWith("| GET, 16 connections | Dubbo 3.3.6") && l.endsWith("| 1.25× | 0.50× |")), md);
    assertTrue(md.lines().anyMatch(l -> l.startsWith("| GET, 16 connections | grpc-gateway + Triple") && l.endsWith("| 2.00× | 1.00× |")), md);
    assertTrue(md.lines().anyMatch(l -> l.startsWith("| GET, 16 connections | Triple (REST, annotated)") && l.endsWith("| – | – |")), md);
    assertTrue(md.contains("| load before round 1 | 1.50 2.00 3.00 |\n| load after round 1 | 4.00 3.00 3.00 |"), md);
    assertEquals(5, report.charts().get(0).chart().getSeriesMap().size(), "a bar per contender");
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
    assertTrue(report.markdown("").contains("1 run(s) of Triple (REST, .proto), POST, 16 connections, left out"));
    // A run that printed no summary at all (h2load aborted) has no figures, and is said so too.
    run("dubbo", "post", 16, 1, "starting benchmark...\n[ERROR] HTTP parse error: (HPE_INVALID_CONSTANT) Expected HTTP/\n"
        + "h2load: ev_epoll.c:134: epoll_modify: Assertion failed.\n", null);
    RestReport withDubbo = RestReport.load(dir);
    assertEquals(List.of("triple", "gateway-grpc"), withDubbo.contenders());
    assertTrue(withDubbo.markdown("").contains("no figures from Dubbo 3.3.6 (REST, annotated), POST, 16 connections, "
        + "round 1: h2load printed no summary"), withDubbo.markdown(""));
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

    // The HTTP/2 run's section goes right after the HTTP/1.1 one, and each is replaced without the other.
    String h2 = RestReport.replaceSection(second, "h2 figures 1\n", RestReport.BEGIN_H2, RestReport.END_H2);
    assertTrue(h2.indexOf(RestReport.END) < h2.indexOf("h2 figures 1"), h2);
    assertTrue(h2.indexOf("h2 figures 1") < h2.indexOf(Report.MARKER), h2);
    String both = RestReport.replaceSection(
        RestReport.replaceSection(h2, "h2 figures 2\n", RestReport.BEGIN_H2, RestReport.END_H2), "figures 3\n");
    assertEquals(h2.replace("h2 figures 1", "h2 figures 2").replace(RestReport.BEGIN + "\n\nfigures 2",
        RestReport.BEGIN + "\n\nfigures 3"), both);
  }

  @Test
  void anHttp2RunHasChartsOfItsOwn() throws Exception {
    run("triple-annotated", "get", 1, 1, output(2000, 1000, 0, 0, "400us"), log(range(1, 100), 200));
    run("dubbo", "get", 1, 1, output(1000, 1000, 0, 0, "800us"), log(range(1, 100), 200));
    Files.writeString(dir.resolve("machine.txt"), "protocol: HTTP/2 over cleartext, prior knowledge\n");
    RestReport report = RestReport.load(dir);
    assertTrue(report.http2());
    assertEquals(List.of(RestReport.THROUGHPUT_CHART_H2, RestReport.P99_CHART_H2),
        report.charts().stream().map(Charts.Chart::fileName).toList());
    assertTrue(report.markdown("images/").contains("![REST throughput](images/" + RestReport.THROUGHPUT_CHART_H2 + ")"));
  }
}
