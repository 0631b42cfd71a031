package io.triplerpc.benchmark.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.Styler;

/** The PNG charts of a report, drawn with XChart from the same medians as the tables. */
final class Charts {

  static final String THROUGHPUT = "bench-throughput.png";
  static final String LATENCY = "bench-latency-getUser.png";
  static final String ABLATION = "bench-ablation.png";
  static final String H2LOAD = "bench-h2load.png";
  static final String OPEN_LOOP = "bench-open-loop-p99.png";
  /** Above this ratio of a chart's highest to lowest figure, its y axis is logarithmic. */
  private static final double SWEEP_LOG_SPAN = 20;

  /** A sweep's chart: {@code bench-sweep-<dimension>-<measure>.png}, measure {@code ops} or {@code p99}. */
  static String sweep(String dimension, String measure) {
    return "bench-sweep-" + dimension + "-" + measure + ".png";
  }

  /** A chart and the file it goes to. */
  record Chart(String fileName, CategoryChart chart) {
    void save(Path path) throws IOException {
      String name = path.toString();
      BitmapEncoder.saveBitmap(chart, name.substring(0, name.length() - ".png".length()), BitmapEncoder.BitmapFormat.PNG);
    }
  }

  private Charts() {}

  static List<Chart> all(Results results) {
    List<Chart> charts = new ArrayList<>();
    throughput(results, charts);
    latency(results, charts);
    ablation(results, charts);
    h2load(results, charts);
    openLoop(results, charts);
    sweeps(results, charts);
    return charts;
  }

  static CategoryChart chart(String title, String xTitle, String yTitle) {
    CategoryChart chart = new CategoryChartBuilder().width(1000).height(520).title(title)
        .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setPlotGridVerticalLinesVisible(false);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setLabelsFontColor(java.awt.Color.BLACK);
    chart.getStyler().setLabelsPosition(0.98);
    chart.getStyler().setXAxisLabelRotation(0);
    chart.getStyler().setAvailableSpaceFill(0.8);
    return chart;
  }

  /** Throughput of each contender relative to grpc-java (1.0), per benchmark: one scale for all. */
  private static void throughput(Results results, List<Chart> charts) {
    List<String> benchmarks = new ArrayList<>();
    for (String benchmark : Report.BENCHMARKS) {
      if (results.ops(benchmark, "grpc") != null) {
        benchmarks.add(benchmark);
      }
    }
    if (benchmarks.isEmpty()) {
      return;
    }
    CategoryChart chart = chart("Throughput relative to grpc-java (higher is better)", "benchmark", "× grpc-java ops/s");
    for (String contender : Report.CONTENDERS) {
      List<Double> ratios = new ArrayList<>();
      for (String benchmark : benchmarks) {
        Double ops = results.ops(benchmark, contender);
        ratios.add(ops == null ? 0.0 : ops / results.ops(benchmark, "grpc"));
      }
      chart.addSeries(Report.displayName(contender), benchmarks, ratios);
    }
    chart.getStyler().setDecimalPattern("0.00");
    charts.add(new Chart(THROUGHPUT, chart));
  }

  private static void latency(Results results, List<Chart> charts) {
    List<String> percentiles = List.of("p50", "p99", "p99.9");
    CategoryChart chart = chart("getUser latency (lower is better)", "percentile", "ms");
    boolean any = false;
    for (String contender : Report.CONTENDERS) {
      Results.Figures f = results.figures("getUser", contender);
      if (f == null || f.p50.isEmpty()) {
        continue;
      }
      any = true;
      chart.addSeries(Report.displayName(contender), percentiles,
          List.of(Results.median(f.p50), Results.median(f.p99), Results.median(f.p999)));
    }
    if (any) {
      chart.getStyler().setDecimalPattern("0.00");
      charts.add(new Chart(LATENCY, chart));
    }
  }

  private static void ablation(Results results, List<Chart> charts) {
    List<String> benchmarks = new ArrayList<>();
    for (String benchmark : Report.ablatedBenchmarks(results)) {
      if (Report.ablationBase(results, benchmark) != null) {
        benchmarks.add(benchmark);
      }
    }
    if (benchmarks.isEmpty()) {
      return;
    }
    CategoryChart chart = chart("Triple with one mechanism off, relative to all on", "benchmark", "× all-on ops/s");
    List<String> variants = new ArrayList<>(List.of("triple"));
    Report.ABLATIONS.forEach(a -> variants.add("triple-" + a));
    for (String variant : variants) {
      List<Double> ratios = new ArrayList<>();
      for (String benchmark : benchmarks) {
        Double ops = results.ops(benchmark, variant);
        Double base = Report.ablationBase(results, benchmark);
        if (variant.equals("triple")) {
          ops = base;
        }
        ratios.add(ops == null ? 0.0 : ops / base);
      }
      String name = variant.equals("triple") ? "all on" : variant.substring("triple-".length()) + " off";
      chart.addSeries(name, benchmarks, ratios);
    }
    chart.getStyler().setDecimalPattern("0.00");
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    charts.add(new Chart(ABLATION, chart));
  }

  /** h2load's rate per server, one bar per stream count (a count a server was not measured at has no bar). */
  private static void h2load(Results results, List<Chart> charts) {
    List<String> servers = new ArrayList<>();
    for (String server : Report.H2LOAD_SERVERS) {
      if (Report.H2LOAD_STREAMS.stream().anyMatch(streams -> results.h2loadRate(server, streams).isPresent())) {
        servers.add(server);
      }
    }
    if (servers.isEmpty()) {
      return;
    }
    List<Integer> counts = Report.h2loadStreams(results);
    CategoryChart chart = chart("h2load, one connection, " + Report.streamList(counts)
        + " streams in flight (higher is better)", "server", "requests/s");
    chart.getStyler().setDecimalPattern("#,###");
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    List<String> names = servers.stream().map(Report::displayName).toList();
    for (int streams : counts) {
      List<Double> rates = new ArrayList<>();
      for (String server : servers) {
        var rate = results.h2loadRate(server, streams);
        rates.add(rate.isPresent() ? rate.getAsDouble() : null);
      }
      chart.addSeries(streams + " streams", names, rates);
    }
    charts.add(new Chart(H2LOAD, chart));
  }

  /**
   * ghz's open-loop p99 per load, one bar per server, on a log scale: the overload bars are orders of
   * magnitude above the others. A load a server was not measured at has no bar.
   */
  private static void openLoop(Results results, List<Chart> charts) {
    List<String> loads = new ArrayList<>();
    for (String load : Report.GHZ_LOADS) {
      if (results.ghz.values().stream().anyMatch(byLoad -> byLoad.containsKey(load))) {
        loads.add(load);
      }
    }
    if (loads.isEmpty()) {
      return;
    }
    CategoryChart chart = chart("getUser open-loop p99 (ghz; lower is better)",
        "load, % of each server's closed-loop maximum", "ms (log scale)");
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setDecimalPattern("#,##0.0");
    double lowest = Double.MAX_VALUE;
    for (String server : Report.ghzServers(results)) {
      List<String> categories = new ArrayList<>();
      List<Double> p99 = new ArrayList<>();
      for (String load : loads) {
        GhzRun run = results.ghz(server, load);
        categories.add(load + "%");
        p99.add(run == null ? null : run.p99());
      }
      if (p99.stream().anyMatch(v -> v != null)) {
        chart.addSeries(Report.displayName(server), categories, p99);
        lowest = Math.min(lowest, p99.stream().filter(v -> v != null).min(Double::compare).orElseThrow());
      }
    }
    if (lowest < Double.MAX_VALUE) {
      // Bars start from the axis minimum, which a log scale cannot put at zero: the decade below the lowest.
      chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest))));
      charts.add(new Chart(OPEN_LOOP, chart));
    }
  }

  /**
   * Per sweep, ops/s and p99 against the parameter, a line per contender. The values are categories in
   * ascending order: they grow about geometrically, so equal spacing reads as a log axis and each label is
   * a measured value. Where a chart's figures span more than {@link #SWEEP_LOG_SPAN}× (p99 against threads
   * or payload, as a rule), its y axis is logarithmic: the small values' differences stay visible. A point a
   * contender was not measured at breaks its line.
   */
  private static void sweeps(Results results, List<Chart> charts) {
    for (Results.Sweep sweep : results.sweeps.values()) {
      String axis = Report.sweepAxis(sweep.dimension());
      String base = Report.sweepBase(sweep);
      sweepChart(sweep, "ops", "echo ops/s against " + axis + " (" + base + "; higher is better)", "ops/s",
          Results.SweepPoint::opsPerSecond, charts);
      sweepChart(sweep, "p99", "echo p99 latency against " + axis + " (" + base + "; lower is better)", "p99 µs",
          Results.SweepPoint::p99Micros, charts);
    }
  }

  private static void sweepChart(Results.Sweep sweep, String measure, String title, String yTitle,
      Function<Results.SweepPoint, Double> figure, List<Chart> charts) {
    String dimension = sweep.dimension();
    List<String> values = new ArrayList<>();
    sweep.points().keySet().forEach(value -> values.add(Report.sweepValue(dimension, value)));
    List<String> contenders = new ArrayList<>();
    sweep.points().values().forEach(byContender -> contenders.addAll(byContender.keySet()));
    CategoryChart chart = chart(title, Report.sweepAxis(dimension), yTitle);
    chart.getStyler().setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Line);
    // Every contender's point at its value's x (a category chart places series side by side otherwise).
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setLabelsVisible(false);
    chart.getStyler().setDecimalPattern("#,###");
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    double lowest = Double.MAX_VALUE;
    double highest = 0;
    for (String contender : Report.sweepContenders(contenders)) {
      List<Double> ys = new ArrayList<>();
      for (Map<String, Results.SweepPoint> byContender : sweep.points().values()) {
        Results.SweepPoint point = byContender.get(contender);
        Double y = point == null ? null : figure.apply(point);
        ys.add(y);
        if (y != null) {
          lowest = Math.min(lowest, y);
          highest = Math.max(highest, y);
        }
      }
      chart.addSeries(Report.displayName(contender), values, ys);
    }
    if (highest == 0) {
      return;
    }
    if (lowest > 0 && highest / lowest > SWEEP_LOG_SPAN) {
      chart.getStyler().setYAxisLogarithmic(true);
    } else {
      // From zero, as the bars of the other charts: an axis starting near the lowest line exaggerates gaps.
      chart.getStyler().setYAxisMin(0.0);
    }
    charts.add(new Chart(sweep(dimension, measure), chart));
  }
}
