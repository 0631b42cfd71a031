package io.triplerpc.benchmark.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The chart of {@code OverloadBenchmark}'s JMH JSON (run with its {@code OverloadProfiler}): goodput and
 * the p99 latency of admitted calls, with the adaptive limit off and on, per offered load; medians of the
 * measured iterations. {@code java -cp bench-report.jar io.triplerpc.benchmark.report.OverloadChart
 * overload.json docs/images}.
 */
public final class OverloadChart {

  static final String FILE = "bench-overload";

  private OverloadChart() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: OverloadChart <overload.json> <output directory>");
    }
    JsonNode runs = new ObjectMapper().readTree(Path.of(args[0]).toFile());
    List<String> loads = new ArrayList<>();
    List<Double> goodputOff = new ArrayList<>();
    List<Double> goodputOn = new ArrayList<>();
    List<Double> p99Off = new ArrayList<>();
    List<Double> p99On = new ArrayList<>();
    for (JsonNode run : runs) {
      String load = run.path("params").path("load").asText() + "× capacity";
      boolean adaptive = "adaptive".equals(run.path("params").path("limiter").asText());
      if (!loads.contains(load)) {
        loads.add(load);
      }
      JsonNode metrics = run.path("secondaryMetrics");
      (adaptive ? goodputOn : goodputOff).add(median(metrics.path("goodput")));
      (adaptive ? p99On : p99Off).add(median(metrics.path("admitted.p99")));
    }
    CategoryChart goodput = chart("Goodput (calls answered OK per second)", "ops/s");
    goodput.addSeries("limiter off", loads, goodputOff);
    goodput.addSeries("adaptive limit", loads, goodputOn);
    CategoryChart latency = chart("p99 latency of the calls answered OK (ms)", "ms");
    latency.addSeries("limiter off", loads, p99Off);
    latency.addSeries("adaptive limit", loads, p99On);
    Path out = Path.of(args[1]);
    BitmapEncoder.saveBitmap(List.of(goodput, latency), 1, 2, out.resolve(FILE).toString(),
        BitmapEncoder.BitmapFormat.PNG);
  }

  private static CategoryChart chart(String title, String yTitle) {
    CategoryChart chart = new CategoryChartBuilder().width(560).height(420).title(title).yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setLabelsFontColor(java.awt.Color.BLACK);
    chart.getStyler().setDecimalPattern("#,##0.#");
    return chart;
  }

  /** The median of every measured iteration of a secondary metric. */
  private static double median(JsonNode metric) {
    List<Double> values = new ArrayList<>();
    for (JsonNode fork : metric.path("rawData")) {
      for (JsonNode value : fork) {
        values.add(value.asDouble());
      }
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "no data in %s", metric));
    }
    values.sort(null);
    int n = values.size();
    return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
  }
}
