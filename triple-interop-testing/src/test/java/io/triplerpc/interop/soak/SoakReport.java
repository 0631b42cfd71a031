package io.triplerpc.interop.soak;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The figures of a soak run: the series as CSV and a PNG chart, a least-squares line through each
 * series after the warm-up, the goals checked against them, and one summary line.
 */
final class SoakReport {

  static final String CSV = "soak.csv";
  static final String ERRORS_CSV = "errors.csv";
  static final String CHART = "soak.png";
  static final String SUMMARY = "summary.txt";

  private static final double MB = 1024 * 1024;
  /** Memory may grow by less than this per ten minutes (MB). */
  static final double MEMORY_SLOPE_LIMIT_MB = 1.0;
  /** Threads and descriptors: the fitted line may move by less than this over the run after warm-up. */
  static final double THREADS_LIMIT = 2;
  static final double FDS_LIMIT = 4;
  static final double P99_LIMIT = 0.20;
  private static final double WINDOW_SECONDS = 600;

  /** A least-squares line through a series: per second, with the number of points. */
  record Fit(double slopePerSecond, double intercept, int points) {
    double per10Minutes() {
      return slopePerSecond * 600;
    }
  }

  /** One goal: its name, the figure, the limit, and whether it was met (null: too few samples). */
  record Goal(String name, String figure, String limit, Boolean met) {}

  private final Soak.Run run;
  private final List<Soak.Sample> after;
  private final double warmupSeconds;
  private final double durationSeconds;
  private final double windowSeconds;
  final List<Goal> goals = new ArrayList<>();
  final Map<String, Long> asked = new TreeMap<>();
  final Map<String, Long> unexpected = new TreeMap<>();
  final long calls;
  final double p99First;
  final double p99Last;
  final Histogram all;

  SoakReport(Soak.Run run) {
    this.run = run;
    this.warmupSeconds = run.config().warmup().toSeconds();
    this.durationSeconds = run.config().duration().toSeconds();
    double interval = run.config().sampleInterval().toSeconds();
    this.after = run.samples().stream().filter(s -> s.seconds() > warmupSeconds + interval / 2).toList();
    this.windowSeconds = Math.min(WINDOW_SECONDS, Math.max(interval, (durationSeconds - warmupSeconds) / 3));
    long total = run.priming().completed();
    run.priming().asked().forEach((k, v) -> asked.merge(k, v, Long::sum));
    run.priming().unexpected().forEach((k, v) -> unexpected.merge(k, v, Long::sum));
    all = new Histogram(3);
    for (Soak.Sample sample : run.samples()) {
      total += sample.load().completed();
      sample.load().asked().forEach((k, v) -> asked.merge(k, v, Long::sum));
      sample.load().unexpected().forEach((k, v) -> unexpected.merge(k, v, Long::sum));
      all.add(sample.load().latencyMicros());
    }
    calls = total;
    p99First = p99(warmupSeconds, warmupSeconds + windowSeconds);
    p99Last = p99(durationSeconds - windowSeconds, durationSeconds + interval);

    memoryGoal("heap after GC", "heap_after_gc");
    memoryGoal("allocator direct", "alloc_direct");
    flatGoal("threads", "threads", THREADS_LIMIT);
    flatGoal("fds", "fds", FDS_LIMIT);
    double change = p99Last / p99First - 1;
    String window = windowSeconds % 60 == 0 ? (long) windowSeconds / 60 + " min" : (long) windowSeconds + " s";
    goals.add(new Goal("p99 last " + window + " vs first " + window + " after warm-up",
        String.format(Locale.ROOT, "%.2f -> %.2f ms (%+.0f%%)", p99First, p99Last, change * 100),
        "within 20%", Double.isNaN(change) ? null : Math.abs(change) <= P99_LIMIT));
    long unexpectedCount = unexpected.values().stream().mapToLong(Long::longValue).sum();
    goals.add(new Goal("unexpected errors", Long.toString(unexpectedCount), "0", unexpectedCount == 0));
    goals.add(new Goal("leak reports (server)", run.serverLeaks() + " (LEAK: lines " + run.leakLines() + ")", "0",
        run.serverLeaks() == 0 && run.leakLines() == 0));
  }

  private void memoryGoal(String name, String key) {
    Fit fit = fit(s -> s.server().get(key) / MB);
    goals.add(new Goal(name + " growth", String.format(Locale.ROOT, "%+.3f MB/10 min", fit.per10Minutes()),
        "< 1 MB/10 min", fit.points() < 3 ? null : fit.per10Minutes() < MEMORY_SLOPE_LIMIT_MB));
  }

  private void flatGoal(String name, String key, double limit) {
    Fit fit = fit(s -> s.server().get(key));
    double span = after.isEmpty() ? 0 : after.get(after.size() - 1).seconds() - after.get(0).seconds();
    double change = fit.slopePerSecond() * span;
    LongSummary range = range(key);
    goals.add(new Goal(name + " constant", String.format(Locale.ROOT, "fitted %+.1f over the run (%d..%d)",
        change, range.min, range.max), "|change| < " + (int) limit, fit.points() < 3 ? null : Math.abs(change) < limit));
  }

  private record LongSummary(long min, long max) {}

  private LongSummary range(String key) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (Soak.Sample sample : after) {
      min = Math.min(min, sample.server().get(key));
      max = Math.max(max, sample.server().get(key));
    }
    return after.isEmpty() ? new LongSummary(0, 0) : new LongSummary(min, max);
  }

  /** The least-squares line through {@code value} over the samples after the warm-up. */
  Fit fit(ToDoubleFunction<Soak.Sample> value) {
    int n = after.size();
    if (n < 2) {
      return new Fit(Double.NaN, Double.NaN, n);
    }
    double sx = 0;
    double sy = 0;
    for (Soak.Sample s : after) {
      sx += s.seconds();
      sy += value.applyAsDouble(s);
    }
    double mx = sx / n;
    double my = sy / n;
    double sxy = 0;
    double sxx = 0;
    for (Soak.Sample s : after) {
      double dx = s.seconds() - mx;
      sxy += dx * (value.applyAsDouble(s) - my);
      sxx += dx * dx;
    }
    double slope = sxy / sxx;
    return new Fit(slope, my - slope * mx, n);
  }

  /** The p99 (ms) of the calls that ended in the samples whose interval ends in (from, to]. */
  private double p99(double from, double to) {
    Histogram merged = new Histogram(3);
    double interval = run.config().sampleInterval().toSeconds();
    for (Soak.Sample sample : run.samples()) {
      if (sample.seconds() > from + interval / 2 && sample.seconds() <= to + interval / 2) {
        merged.add(sample.load().latencyMicros());
      }
    }
    return merged.getTotalCount() == 0 ? Double.NaN : merged.getValueAtPercentile(99) / 1000.0;
  }

  boolean passed() {
    return goals.stream().allMatch(g -> !Boolean.FALSE.equals(g.met()));
  }

  /** The one summary line. */
  String summaryLine() {
    Fit heap = fit(s -> s.server().get("heap_after_gc") / MB);
    Fit direct = fit(s -> s.server().get("alloc_direct") / MB);
    Fit allocHeap = fit(s -> s.server().get("alloc_heap") / MB);
    Fit nettyDirect = fit(s -> s.server().get("netty_direct") / MB);
    Fit jvmDirect = fit(s -> s.server().get("jvm_direct") / MB);
    Fit threads = fit(s -> s.server().get("threads"));
    Fit fds = fit(s -> s.server().get("fds"));
    Fit rate = fit(s -> callsPerSecond(s));
    long unexpectedCount = unexpected.values().stream().mapToLong(Long::longValue).sum();
    long askedCount = asked.values().stream().mapToLong(Long::longValue).sum();
    return String.format(Locale.ROOT, "soak result=%s duration_s=%d warmup_s=%d rate=%.0f calls=%d samples=%d"
            + " heap_mb_per_10min=%+.3f alloc_direct_mb_per_10min=%+.3f alloc_heap_mb_per_10min=%+.3f"
            + " netty_direct_mb_per_10min=%+.3f jvm_direct_mb_per_10min=%+.3f threads_per_10min=%+.3f"
            + " fds_per_10min=%+.3f calls_per_s_per_10min=%+.3f p50_ms=%.2f p99_ms=%.2f p99_first_ms=%.2f"
            + " p99_last_ms=%.2f unexpected_errors=%d asked_errors=%d leaks=%d leak_lines=%d unmet=%s",
        passed() ? "pass" : "fail", (long) durationSeconds, (long) warmupSeconds, run.config().rate(), calls,
        run.samples().size(), heap.per10Minutes(), direct.per10Minutes(), allocHeap.per10Minutes(),
        nettyDirect.per10Minutes(), jvmDirect.per10Minutes(), threads.per10Minutes(), fds.per10Minutes(),
        rate.per10Minutes(), all.getValueAtPercentile(50) / 1000.0, all.getValueAtPercentile(99) / 1000.0, p99First,
        p99Last, unexpectedCount, askedCount, run.serverLeaks(), run.leakLines(), unmet());
  }

  private String unmet() {
    List<String> names = new ArrayList<>();
    for (Goal goal : goals) {
      if (Boolean.FALSE.equals(goal.met())) {
        names.add(goal.name().replace(' ', '_'));
      }
    }
    return names.isEmpty() ? "none" : String.join(",", names);
  }

  private double callsPerSecond(Soak.Sample sample) {
    return sample.load().completed() / run.config().sampleInterval().toSeconds();
  }

  /** Every line of the report: the goals, the errors by status, the summary line last. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "soak: %d s at %.0f calls/s after %d priming calls, samples every %d s,"
            + " warm-up %d s, p99 windows of %d s, server allocator %s, %d client replacements", (long) durationSeconds,
        run.config().rate(), run.priming().completed(), run.config().sampleInterval().toSeconds(), (long) warmupSeconds,
        (long) windowSeconds, run.allocator(), run.reconnects()));
    for (Goal goal : goals) {
      lines.add(String.format(Locale.ROOT, "goal %-45s %-40s %-16s %s", goal.name(), goal.figure(), goal.limit(),
          goal.met() == null ? "not measured (too few samples)" : goal.met() ? "met" : "NOT MET"));
    }
    lines.add("errors asked for: " + asked);
    lines.add("errors unexpected: " + unexpected);
    for (String example : run.unexpectedExamples()) {
      lines.add("  unexpected: " + example);
    }
    lines.add(summaryLine());
    return lines;
  }

  /** Writes soak.csv, errors.csv, soak.png and summary.txt into the run's output directory. */
  void write() throws IOException {
    Path out = run.config().out();
    try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve(CSV)))) {
      csv.println("minute,heap_after_gc_mb,alloc_direct_mb,alloc_heap_mb,netty_direct_mb,jvm_direct_mb,threads,fds,"
          + "calls_per_s,p50_ms,p99_ms,max_ms,asked_errors,unexpected_errors,in_flight");
      for (Soak.Sample s : run.samples()) {
        Histogram h = s.load().latencyMicros();
        csv.println(String.format(Locale.ROOT, "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d,%.1f,%.3f,%.3f,%.3f,%d,%d,%d",
            s.seconds() / 60, s.server().get("heap_after_gc") / MB, s.server().get("alloc_direct") / MB,
            s.server().get("alloc_heap") / MB, s.server().get("netty_direct") / MB, s.server().get("jvm_direct") / MB,
            s.server().get("threads"), s.server().get("fds"), callsPerSecond(s), h.getValueAtPercentile(50) / 1000.0,
            h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0, sum(s.load().asked()),
            sum(s.load().unexpected()), s.load().inFlight()));
      }
    }
    try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve(ERRORS_CSV)))) {
      csv.println("minute,kind,status,count");
      for (Soak.Sample s : run.samples()) {
        String minute = String.format(Locale.ROOT, "%.3f", s.seconds() / 60);
        s.load().asked().forEach((code, n) -> csv.println(minute + ",asked," + code + "," + n));
        s.load().unexpected().forEach((code, n) -> csv.println(minute + ",unexpected," + code + "," + n));
      }
    }
    Files.write(out.resolve(SUMMARY), lines());
    chart(out.resolve(CHART));
  }

  private static long sum(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  private void chart(Path file) throws IOException {
    String warm = warmupSeconds >= 60 ? String.format(Locale.ROOT, " (warm-up: first %d min)", (long) warmupSeconds / 60)
        : String.format(Locale.ROOT, " (warm-up: first %d s)", (long) warmupSeconds);
    XYChart memory = panel("Server memory" + warm, "MB");
    line(memory, "heap after GC", s -> s.server().get("heap_after_gc") / MB);
    line(memory, "allocator direct", s -> s.server().get("alloc_direct") / MB);
    line(memory, "allocator heap", s -> s.server().get("alloc_heap") / MB);
    XYChart resources = panel("Server threads and open file descriptors", "count");
    line(resources, "threads", s -> s.server().get("threads"));
    line(resources, "fds", s -> s.server().get("fds"));
    XYChart rate = panel("Calls per second (driver, open loop)", "calls/s");
    line(rate, "calls/s", this::callsPerSecond);
    XYChart latency = panel("Latency of the calls that ended OK", "ms");
    line(latency, "p50", s -> s.load().latencyMicros().getValueAtPercentile(50) / 1000.0);
    line(latency, "p99", s -> s.load().latencyMicros().getValueAtPercentile(99) / 1000.0);
    List<XYChart> panels = List.of(memory, resources, rate, latency);
    int width = 700;
    int height = 380;
    BufferedImage image = new BufferedImage(width * 2, height * 2, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    for (int i = 0; i < panels.size(); i++) {
      g.drawImage(BitmapEncoder.getBufferedImage(panels.get(i)), (i % 2) * width, (i / 2) * height, null);
    }
    g.dispose();
    ImageIO.write(image, "png", file.toFile());
  }

  private static XYChart panel(String title, String yTitle) {
    XYChart chart = new XYChartBuilder().width(700).height(380).title(title).xAxisTitle("minute").yAxisTitle(yTitle)
        .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setYAxisMin(0.0);
    return chart;
  }

  private void line(XYChart chart, String name, ToDoubleFunction<Soak.Sample> value) {
    double[] x = run.samples().stream().mapToDouble(s -> s.seconds() / 60).toArray();
    double[] y = run.samples().stream().mapToDouble(value).toArray();
    XYSeries series = chart.addSeries(name, x, y);
    series.setMarker(SeriesMarkers.CIRCLE);
  }
}
