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
import java.util.OptionalDouble;
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
 * {@code raw/h2load-<server>-r<round>.txt} and {@code raw/ghz-<server>-<load>-r<round>.json[.gz]}
 * (load: {@code max} for the closed-loop maximum, else the percentage of it), as
 * {@code scripts/bench.sh} writes them.
 */
final class Results {

  private static final Pattern JMH_FILE = Pattern.compile("(thrpt|sample)-([A-Za-z]+)-(.+)-r(\\d+)\\.json");
  private static final Pattern H2LOAD_FILE = Pattern.compile("h2load-(.+)-r(\\d+)\\.txt");
  private static final Pattern GHZ_FILE = Pattern.compile("ghz-(.+)-(max|\\d+)-r(\\d+)\\.json(\\.gz)?");
  private static final Pattern H2LOAD_RATE = Pattern.compile("finished in [0-9.]+s, ([0-9.]+) req/s");

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
  /** server → requests per second, one per round. */
  final Map<String, List<Double>> h2load = new LinkedHashMap<>();
  /** server → load ({@code max} or a percentage) → one ghz run per round. */
  final Map<String, Map<String, List<GhzRun>>> ghz = new LinkedHashMap<>();
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
      Matcher ghzName = GHZ_FILE.matcher(name);
      if (jmhName.matches()) {
        results.addJmh(jmhName.group(1), jmhName.group(2), jmhName.group(3), json.readTree(file.toFile()));
      } else if (h2Name.matches()) {
        Matcher rate = H2LOAD_RATE.matcher(Files.readString(file));
        if (rate.find()) {
          results.h2load.computeIfAbsent(h2Name.group(1), k -> new ArrayList<>()).add(Double.parseDouble(rate.group(1)));
        }
      } else if (ghzName.matches()) {
        results.ghz.computeIfAbsent(ghzName.group(1), k -> new LinkedHashMap<>())
            .computeIfAbsent(ghzName.group(2), k -> new ArrayList<>()).add(GhzRun.read(file));
      }
    }
    return results;
  }

  private void addJmh(String mode, String benchmark, String contender, JsonNode runs) {
    Figures figures = jmh.computeIfAbsent(benchmark, k -> new LinkedHashMap<>())
        .computeIfAbsent(contender, k -> new Figures());
    for (JsonNode run : runs) {
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

  /** The rounds of ghz at one load ({@code max} or a percentage) against one server, or null. */
  GhzRun ghz(String server, String load) {
    List<GhzRun> rounds = ghz.getOrDefault(server, Map.of()).get(load);
    return rounds == null || rounds.isEmpty() ? null : GhzRun.median(rounds);
  }

  OptionalDouble h2loadRate(String server) {
    List<Double> rates = h2load.get(server);
    return rates == null || rates.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(median(rates));
  }
}
