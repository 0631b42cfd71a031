package io.triplerpc.benchmark.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The figures of one results folder, reduced to one value per benchmark and contender: the median
 * of every measured iteration over all rounds (the machine is shared and noisy; a median ignores
 * the iteration that a neighbour spoiled).
 *
 * <p>File names carry what JMH does not: {@code raw/<mode>-<benchmark>-<contender>-r<round>.json},
 * {@code raw/h2load-<server>-m<streams>-r<round>.txt} (streams: h2load's {@code -m}, the requests in
 * flight on its one connection) and {@code raw/ghz-<server>-<load>-r<round>.json[.gz]} (load: {@code max}
 * for the closed-loop maximum, a percentage of it, or {@code same<percentage>}: that share of grpc-java's
 * maximum, the same rate for every server), as {@code scripts/bench.sh} writes them.
 * Results folders older than the stream counts have {@code raw/h2load-<server>-r<round>.txt}, measured
 * at 100 streams. The sweeps: {@code raw/sweep-<dimension>-<value>-<contender>-r<round>.json}, JMH sample
 * mode, one point of one curve (see {@link #sweeps}).
 */
final class Results {

  private static final Pattern JMH_FILE = Pattern.compile("(thrpt|sample)-([A-Za-z]+)-(.+)-r(\\d+)\\.json");
  private static final Pattern H2LOAD_FILE = Pattern.compile("h2load-(.+)-m(\\d+)-r(\\d+)\\.txt");
  /** The name before bench.sh measured more than one stream count (it also matches the new names: test second). */
  private static final Pattern H2LOAD_FILE_100_STREAMS = Pattern.compile("h2load-(.+)-r(\\d+)\\.txt");
  /** The streams in flight of {@link #H2LOAD_FILE_100_STREAMS}: bench.sh's only h2load run then. */
  private static final int H2LOAD_OLD_STREAMS = 100;
  private static final Pattern GHZ_FILE = Pattern.compile("ghz-(.+)-(max|\\d+|same\\d+)-r(\\d+)\\.json(\\.gz)?");
  private static final Pattern H2LOAD_RATE = Pattern.compile("finished in [0-9.]+s, ([0-9.]+) req/s");
  private static final Pattern SWEEP_FILE =
      Pattern.compile("sweep-(threads|payload|connections)-(\\d+)-(.+)-r(\\d+)\\.json");

  /** The parameters the sweeps vary, one curve each, in the report's order; also the keys of a point. */
  static final List<String> SWEEP_DIMENSIONS = List.of("threads", "payload", "connections");

  /**
   * One sweep run (one contender, one round) at one point: JMH threads, payload bytes and connections.
   * ops/s by Little's law: JMH's threads call in a closed loop without think time, so as many calls as
   * threads are always in flight and the rate is threads / mean latency.
   */
  record SweepRun(String dimension, String contender, int round, Map<String, Integer> point,
      double opsPerSecond, double p50Micros, double p99Micros) {}

  /** One contender at one point of a curve: each figure the median over the rounds. */
  record SweepPoint(double opsPerSecond, double p50Micros, double p99Micros) {

    static SweepPoint median(List<SweepRun> rounds) {
      return new SweepPoint(Results.median(rounds.stream().map(SweepRun::opsPerSecond).toList()),
          Results.median(rounds.stream().map(SweepRun::p50Micros).toList()),
          Results.median(rounds.stream().map(SweepRun::p99Micros).toList()));
    }
  }

  /**
   * One curve: the values of its dimension, ascending, → contender → point; {@code base} the two other
   * parameters, fixed along the curve.
   */
  record Sweep(String dimension, Map<String, Integer> base, NavigableMap<Integer, Map<String, SweepPoint>> points) {}

  /** One benchmark and contender: the medians, null where not measured. */
  static final class Figures {
    final List<Double> opsPerSecond = new ArrayList<>();
    final List<Double> p50 = new ArrayList<>();
    final List<Double> p99 = new ArrayList<>();
    final List<Double> p999 = new ArrayList<>();
    final List<Double> bytesPerCall = new ArrayList<>();
    final List<Double> serverCpuMicros = new ArrayList<>();
    final List<Double> clientCpuMicros = new ArrayList<>();
    final List<Double> commandsPerFlush = new ArrayList<>();
    final List<Double> flushesPerCall = new ArrayList<>();

    Double ops() {
      return median(opsPerSecond);
    }
  }

  /** benchmark → contender (in order of first appearance) → figures. */
  final Map<String, Map<String, Figures>> jmh = new TreeMap<>();
  /**
   * streams in flight → server (in order of first appearance) → round → requests per second. A round
   * named both ways (an old folder re-measured with bench.sh --only h2load) keeps the new name's figure.
   */
  final Map<Integer, Map<String, Map<Integer, Double>>> h2load = new TreeMap<>();
  /** server → load ({@code max} or a percentage) → one ghz run per round. */
  final Map<String, Map<String, List<GhzRun>>> ghz = new LinkedHashMap<>();
  /** Every sweep run read, in file order. */
  final List<SweepRun> sweepRuns = new ArrayList<>();
  /**
   * dimension (in the order of {@link #SWEEP_DIMENSIONS}, only those measured) → curve. A run lies on
   * every curve whose fixed parameters it has: bench.sh measures the base point once, under threads,
   * and it also makes the payload curve's 10 B and the connections curve's 1.
   */
  final Map<String, Sweep> sweeps = new LinkedHashMap<>();
  /** machine.txt as key → value, in file order. */
  final Map<String, String> machine = new LinkedHashMap<>();

  static Results load(Path folder) throws IOException {
    Results results = new Results();
    Path machineFile = folder.resolve("machine.txt");
    if (Files.exists(machineFile)) {
      for (String line : Files.readAllLines(machineFile)) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          // Each re-run of some benchmarks (bench.sh --only) adds a line; keep them all.
          results.machine.merge(line.substring(0, colon).trim(), line.substring(colon + 1).trim(),
              (first, next) -> first + "; " + next);
        }
      }
    }
    Path raw = folder.resolve("raw");
    List<Path> files;
    try (Stream<Path> list = Files.list(raw)) {
      files = list.sorted().toList();
    }
    ObjectMapper json = new ObjectMapper();
    for (Path file : files) {
      String name = file.getFileName().toString();
      Matcher jmhName = JMH_FILE.matcher(name);
      Matcher h2Name = H2LOAD_FILE.matcher(name);
      Matcher h2OldName = H2LOAD_FILE_100_STREAMS.matcher(name);
      Matcher ghzName = GHZ_FILE.matcher(name);
      Matcher sweepName = SWEEP_FILE.matcher(name);
      if (sweepName.matches()) {
        results.addSweep(sweepName.group(1), Integer.parseInt(sweepName.group(2)), sweepName.group(3),
            Integer.parseInt(sweepName.group(4)), json.readTree(file.toFile()));
      } else if (jmhName.matches()) {
        results.addJmh(jmhName.group(1), jmhName.group(2), jmhName.group(3), json.readTree(file.toFile()));
      } else if (h2Name.matches()) {
        results.addH2load(h2Name.group(1), Integer.parseInt(h2Name.group(2)), Integer.parseInt(h2Name.group(3)),
            file, true);
      } else if (h2OldName.matches()) {
        results.addH2load(h2OldName.group(1), H2LOAD_OLD_STREAMS, Integer.parseInt(h2OldName.group(2)), file, false);
      } else if (ghzName.matches()) {
        results.ghz.computeIfAbsent(ghzName.group(1), k -> new LinkedHashMap<>())
            .computeIfAbsent(ghzName.group(2), k -> new ArrayList<>()).add(GhzRun.read(file));
      }
    }
    results.buildSweeps();
    return results;
  }

  /**
   * One sweep file: its point from JMH's {@code threads} and {@code params} (the file name's value for
   * its own dimension), the mean and percentiles of JMH's sampled calls. A run without samples is left out.
   */
  private void addSweep(String dimension, int value, String contender, int round, JsonNode runs) {
    JsonNode run = runs.path(0);
    JsonNode primary = run.path("primaryMetric");
    double toMicros = 1000 * millisPer(primary.path("scoreUnit").asText("us/op"));
    double meanMicros = primary.path("score").asDouble(0) * toMicros;
    JsonNode p50 = primary.path("scorePercentiles").get("50.0");
    JsonNode p99 = primary.path("scorePercentiles").get("99.0");
    Map<String, Integer> point = new LinkedHashMap<>();
    point.put("threads", run.path("threads").asInt(-1));
    point.put("payload", param(run, "payload"));
    point.put("connections", param(run, "connections"));
    point.put(dimension, value);
    int threads = point.get("threads");
    if (!(meanMicros > 0) || threads <= 0 || p50 == null || p99 == null) {
      return;
    }
    sweepRuns.add(new SweepRun(dimension, contender, round, point, threads * 1e6 / meanMicros,
        p50.asDouble() * toMicros, p99.asDouble() * toMicros));
  }

  /** A JMH {@code @Param} of a run as a number, -1 when absent (such a run lies on its own curve only). */
  private static int param(JsonNode run, String name) {
    try {
      return Integer.parseInt(run.path("params").path(name).asText("-1"));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * The curves: per dimension measured, its own runs, then any other run with the same fixed parameters
   * (the first own run's), for a value and round and contender not measured under the dimension itself.
   */
  private void buildSweeps() {
    for (String dimension : SWEEP_DIMENSIONS) {
      List<SweepRun> own = sweepRuns.stream().filter(run -> run.dimension().equals(dimension)).toList();
      if (own.isEmpty()) {
        continue;
      }
      Map<String, Integer> base = fixed(own.get(0).point(), dimension);
      Map<Integer, Map<String, Map<Integer, SweepRun>>> byValue = new TreeMap<>();
      List<SweepRun> onCurve = new ArrayList<>(own);
      sweepRuns.stream().filter(run -> !run.dimension().equals(dimension) && fixed(run.point(), dimension).equals(base))
          .forEach(onCurve::add);
      for (SweepRun run : onCurve) {
        byValue.computeIfAbsent(run.point().get(dimension), k -> new LinkedHashMap<>())
            .computeIfAbsent(run.contender(), k -> new TreeMap<>()).putIfAbsent(run.round(), run);
      }
      NavigableMap<Integer, Map<String, SweepPoint>> points = new TreeMap<>();
      byValue.forEach((value, byContender) -> {
        Map<String, SweepPoint> medians = new LinkedHashMap<>();
        byContender.forEach((contender, rounds) ->
            medians.put(contender, SweepPoint.median(List.copyOf(rounds.values()))));
        points.put(value, medians);
      });
      sweeps.put(dimension, new Sweep(dimension, base, points));
    }
  }

  /** A point without one dimension: the parameters fixed along that dimension's curve. */
  private static Map<String, Integer> fixed(Map<String, Integer> point, String dimension) {
    Map<String, Integer> rest = new LinkedHashMap<>(point);
    rest.remove(dimension);
    return rest;
  }

  /** One h2load run, if its output has the rate (a run that failed has none); an old name yields to a new one. */
  private void addH2load(String server, int streams, int round, Path file, boolean newName) throws IOException {
    Matcher rate = H2LOAD_RATE.matcher(Files.readString(file));
    if (!rate.find()) {
      return;
    }
    Map<Integer, Double> rounds = h2load.computeIfAbsent(streams, k -> new LinkedHashMap<>())
        .computeIfAbsent(server, k -> new TreeMap<>());
    if (newName) {
      rounds.put(round, Double.parseDouble(rate.group(1)));
    } else {
      rounds.putIfAbsent(round, Double.parseDouble(rate.group(1)));
    }
  }

  private void addJmh(String mode, String benchmark, String contender, JsonNode runs) {
    Figures figures = jmh.computeIfAbsent(benchmark, k -> new LinkedHashMap<>())
        .computeIfAbsent(contender, k -> new Figures());
    List<JsonNode> suiteRuns = new ArrayList<>();
    for (JsonNode run : runs) {
      if (SUITE_CLASSES.contains(simpleClassOf(run.path("benchmark").asText("")))) {
        suiteRuns.add(run);
      }
    }
    for (JsonNode run : suiteRuns.isEmpty() ? runs : suiteRuns) {
      JsonNode primary = run.path("primaryMetric");
      if (mode.equals("thrpt")) {
        for (JsonNode fork : primary.path("rawData")) {
          for (JsonNode iteration : fork) {
            figures.opsPerSecond.add(iteration.asDouble());
          }
        }
        JsonNode secondary = run.path("secondaryMetrics");
        addSecondary(secondary, "gc.alloc.rate.norm", figures.bytesPerCall);
        addSecondary(secondary, "server.cpu", figures.serverCpuMicros);
        addSecondary(secondary, "client.cpu", figures.clientCpuMicros);
        addSecondary(secondary, "wq.commands.per.flush", figures.commandsPerFlush);
        addSecondary(secondary, "wq.flushes.per.op", figures.flushesPerCall);
      } else {
        double toMillis = millisPer(primary.path("scoreUnit").asText("ms/op"));
        JsonNode percentiles = primary.path("scorePercentiles");
        addPercentile(percentiles, "50.0", toMillis, figures.p50);
        addPercentile(percentiles, "99.0", toMillis, figures.p99);
        addPercentile(percentiles, "99.9", toMillis, figures.p999);
      }
    }
  }

  /**
   * The classes of the suite's benchmarks. Before bench.sh named them, a method name alone also ran the
   * jar's other benchmarks of that method (Triple's getUser is in five classes) into the same file: only
   * the suite's runs count when a file has any.
   */
  private static final Set<String> SUITE_CLASSES = Set.of("TripleBenchmark", "GrpcBenchmark", "DubboBenchmark");

  /** {@code TripleBenchmark} of {@code io.triplerpc.benchmark.triple.TripleBenchmark.getUser}. */
  private static String simpleClassOf(String benchmark) {
    int method = benchmark.lastIndexOf('.');
    return method < 0 ? "" : benchmark.substring(benchmark.lastIndexOf('.', method - 1) + 1, method);
  }

  /** JMH names secondary metrics with or without a leading "·" depending on the version. */
  private static void addSecondary(JsonNode secondary, String suffix, List<Double> into) {
    for (Iterator<Map.Entry<String, JsonNode>> it = secondary.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> metric = it.next();
      if (metric.getKey().endsWith(suffix) && !metric.getKey().endsWith("." + suffix)) {
        JsonNode raw = metric.getValue().path("rawData");
        boolean any = false;
        for (JsonNode fork : raw) {
          for (JsonNode iteration : fork) {
            into.add(iteration.asDouble());
            any = true;
          }
        }
        if (!any && metric.getValue().has("score")) {
          into.add(metric.getValue().path("score").asDouble());
        }
      }
    }
  }

  private static void addPercentile(JsonNode percentiles, String key, double toMillis, List<Double> into) {
    JsonNode value = percentiles.get(key);
    if (value != null && value.isNumber()) {
      into.add(value.asDouble() * toMillis);
    }
  }

  static double millisPer(String unit) {
    switch (unit) {
      case "s/op":
        return 1000.0;
      case "ms/op":
        return 1.0;
      case "us/op":
        return 0.001;
      case "ns/op":
        return 0.000001;
      default:
        throw new IllegalArgumentException("Unknown JMH time unit " + unit);
    }
  }

  /** The median, or null for no values. */
  static Double median(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  Figures figures(String benchmark, String contender) {
    Map<String, Figures> byContender = jmh.get(benchmark);
    return byContender == null ? null : byContender.get(contender);
  }

  Double ops(String benchmark, String contender) {
    Figures f = figures(benchmark, contender);
    return f == null ? null : f.ops();
  }

  /** The rounds of ghz at one load ({@code max}, a percentage, {@code same<percentage>}) against one server, or null. */
  GhzRun ghz(String server, String load) {
    List<GhzRun> rounds = ghz.getOrDefault(server, Map.of()).get(load);
    return rounds == null || rounds.isEmpty() ? null : GhzRun.median(rounds);
  }

  /** The servers h2load measured at this many streams in flight, in order of first appearance. */
  List<String> h2loadServers(int streams) {
    return List.copyOf(h2load.getOrDefault(streams, Map.of()).keySet());
  }

  /** The median over the rounds of h2load's requests per second against one server at this many streams. */
  OptionalDouble h2loadRate(String server, int streams) {
    Map<Integer, Double> rounds = h2load.getOrDefault(streams, Map.of()).get(server);
    return rounds == null || rounds.isEmpty()
        ? OptionalDouble.empty() : OptionalDouble.of(median(new ArrayList<>(rounds.values())));
  }
}
