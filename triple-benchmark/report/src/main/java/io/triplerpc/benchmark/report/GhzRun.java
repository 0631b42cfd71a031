package io.triplerpc.benchmark.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * One ghz run ({@code ghz -O json}), reduced to a row of the open-loop table; or, from {@link #median},
 * the rounds of one server and load level. Latencies in milliseconds, null where no call answered OK.
 *
 * <p>ghz's own {@code latencyDistribution} stops at p99, so the percentiles are computed here from
 * {@code details} (every call's latency, up to ghz's cap of a million calls) with ghz's method:
 * nearest rank over the calls that answered OK. The file is read as a stream: a run at 20k calls/s
 * for 10 s holds 200k details.
 *
 * @param targetRate the rate asked with {@code --rps} (calls/s), 0 for a closed-loop run
 * @param achievedRate calls ended per second of the run, ghz's {@code rps}: below the target when ghz
 *     itself could not keep its schedule, or when the drain of calls in flight at the end was long
 * @param calls calls that ended, answered or not
 * @param errors calls that ended with a status other than OK
 */
record GhzRun(double targetRate, double achievedRate, long calls, long errors,
    Double p50, Double p90, Double p99, Double p999) {

  private static final JsonFactory JSON = new ObjectMapper().getFactory();

  static GhzRun read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(in) : in);
    }
  }

  static GhzRun parse(InputStream in) throws IOException {
    double targetRate = 0;
    double achievedRate = 0;
    long calls = 0;
    long ok = 0;
    long[] latencies = new long[1024];
    int n = 0;
    try (JsonParser parser = JSON.createParser(in)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a ghz JSON report");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        parser.nextToken();
        switch (field) {
          case "options" -> targetRate = parser.<JsonNode>readValueAsTree().path("rps").asDouble(0);
          case "count" -> calls = parser.getLongValue();
          case "rps" -> achievedRate = parser.getDoubleValue();
          case "statusCodeDistribution" -> ok = parser.<JsonNode>readValueAsTree().path("OK").asLong(0);
          case "details" -> {
            while (parser.nextToken() == JsonToken.START_OBJECT) {
              JsonNode call = parser.readValueAsTree();
              if (call.path("error").asText("").isEmpty()) {
                if (n == latencies.length) {
                  latencies = Arrays.copyOf(latencies, n * 2);
                }
                latencies[n++] = call.path("latency").asLong();
              }
            }
          }
          default -> parser.skipChildren();
        }
      }
    }
    long[] sorted = Arrays.copyOf(latencies, n);
    Arrays.sort(sorted);
    return new GhzRun(targetRate, achievedRate, calls, calls - ok,
        percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 99), percentile(sorted, 99.9));
  }

  /** ghz's nearest rank (runner/reporter.go, {@code latencies}): the value at ceil(p% × n) − 1, in ms. */
  static Double percentile(long[] sortedNanos, double percent) {
    if (sortedNanos.length == 0) {
      return null;
    }
    double rank = percent / 100.0 * sortedNanos.length;
    int index = (int) rank;
    if (rank == index) {
      index--;
    }
    return sortedNanos[Math.max(index, 0)] / 1e6;
  }

  /** The rounds of one server and load level: medians of each figure, calls and errors summed. */
  static GhzRun median(List<GhzRun> rounds) {
    long calls = 0;
    long errors = 0;
    for (GhzRun run : rounds) {
      calls += run.calls;
      errors += run.errors;
    }
    return new GhzRun(Results.median(each(rounds, GhzRun::targetRate)), Results.median(each(rounds, GhzRun::achievedRate)),
        calls, errors, Results.median(each(rounds, GhzRun::p50)), Results.median(each(rounds, GhzRun::p90)),
        Results.median(each(rounds, GhzRun::p99)), Results.median(each(rounds, GhzRun::p999)));
  }

  private static List<Double> each(List<GhzRun> rounds, Function<GhzRun, Double> figure) {
    List<Double> values = new ArrayList<>();
    for (GhzRun run : rounds) {
      Double value = figure.apply(run);
      if (value != null) {
        values.add(value);
      }
    }
    return values;
  }
}
