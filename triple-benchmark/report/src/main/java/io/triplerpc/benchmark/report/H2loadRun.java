package io.triplerpc.benchmark.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One h2load run: the figures of its printed summary and, from its {@code --log-file}, every request's time,
 * from which the percentiles come (h2load prints min, max, mean and sd only).
 *
 * <p>h2load (1.52) counts the requests of the measured {@code --duration} only, after {@code --warm-up-time}:
 * its req/s is that count over the duration, and its log has one line per such request, tab-separated: the
 * start in microseconds since the epoch, the HTTP status ({@code -1} for a failed request) and the
 * microseconds until the end of the response.
 *
 * @param requestsPerSecond h2load's rate over the measured duration
 * @param done requests that ended, answered or not
 * @param succeeded requests answered (any status)
 * @param failed requests that got no answer ({@code failed} plus {@code errored} plus {@code timeout})
 * @param non2xx answers with a status outside 2xx
 * @param meanMicros h2load's mean time for a request
 * @param latenciesMicros the times of the 2xx answers from the log, sorted; empty without a log
 * @param errors the {@code [ERROR]} lines h2load printed (such as an answer it could not parse, after which it
 *     drops the connection: the run goes on with fewer connections, and h2load counts no failed request for it)
 */
record H2loadRun(double requestsPerSecond, long done, long succeeded, long failed, long non2xx, double meanMicros,
    long[] latenciesMicros, int errors) {

  private static final Pattern FINISHED = Pattern.compile("^finished in [^,]+, ([0-9.]+) req/s", Pattern.MULTILINE);
  private static final Pattern REQUESTS = Pattern.compile(
      "^requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, (\\d+) timeout",
      Pattern.MULTILINE);
  private static final Pattern STATUS = Pattern.compile(
      "^status codes: (\\d+) 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx", Pattern.MULTILINE);
  private static final Pattern TIME_FOR_REQUEST = Pattern.compile(
      "^time for request:\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)", Pattern.MULTILINE);

  /**
   * A run is counted only if every request it made got a 2xx answer (an error page is not a result) and h2load
   * reported no error (a connection it dropped, during the warm-up or the measurement, left it measuring fewer).
   */
  boolean clean() {
    return succeeded > 0 && failed == 0 && non2xx == 0 && errors == 0;
  }

  /**
   * The run from h2load's printed output and its log (null: no log); null if the output has no summary (h2load
   * failed to run).
   */
  static H2loadRun parse(String output, BufferedReader log) throws IOException {
    Matcher finished = FINISHED.matcher(output);
    Matcher requests = REQUESTS.matcher(output);
    Matcher status = STATUS.matcher(output);
    Matcher time = TIME_FOR_REQUEST.matcher(output);
    if (!finished.find() || !requests.find() || !status.find() || !time.find()) {
      return null;
    }
    long failed = Long.parseLong(requests.group(5)) + Long.parseLong(requests.group(6)) + Long.parseLong(requests.group(7));
    long non2xx = Long.parseLong(status.group(2)) + Long.parseLong(status.group(3)) + Long.parseLong(status.group(4));
    long[] latencies = log == null ? new long[0] : latencies(log);
    int errors = (int) output.lines().filter(line -> line.startsWith("[ERROR]")).count();
    return new H2loadRun(Double.parseDouble(finished.group(1)), Long.parseLong(requests.group(3)),
        Long.parseLong(requests.group(4)), failed, non2xx, micros(time.group(3)), latencies, errors);
  }

  /** The times of the 2xx answers in an h2load log, sorted. */
  static long[] latencies(BufferedReader log) throws IOException {
    long[] times = new long[1024];
    int n = 0;
    for (String line = log.readLine(); line != null; line = log.readLine()) {
      String[] columns = line.split("\t");
      if (columns.length < 3) {
        continue;
      }
      int status = Integer.parseInt(columns[1].trim());
      if (status < 200 || status > 299) {
        continue;
      }
      if (n == times.length) {
        times = Arrays.copyOf(times, n * 2);
      }
      times[n++] = Long.parseLong(columns[2].trim());
    }
    long[] sorted = Arrays.copyOf(times, n);
    Arrays.sort(sorted);
    return sorted;
  }

  /** The percentile {@code p} (0 to 100) of the logged times, in microseconds, by nearest rank; null without a log. */
  Double percentileMicros(double p) {
    if (latenciesMicros.length == 0) {
      return null;
    }
    // Less a hair: 99.9 / 100 * 1000 is 999.0000000000001 in doubles, and the rank is 999.
    int rank = (int) Math.ceil(p / 100 * latenciesMicros.length - 1e-9);
    return (double) latenciesMicros[Math.max(0, Math.min(latenciesMicros.length, rank) - 1)];
  }

  /** One of h2load's times ({@code 92us}, {@code 1.01ms}, {@code 2.5s}) in microseconds. */
  static double micros(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.endsWith("us")) {
      return Double.parseDouble(v.substring(0, v.length() - 2));
    }
    if (v.endsWith("ms")) {
      return Double.parseDouble(v.substring(0, v.length() - 2)) * 1_000;
    }
    if (v.endsWith("s")) {
      return Double.parseDouble(v.substring(0, v.length() - 1)) * 1_000_000;
    }
    throw new IllegalArgumentException("not an h2load time: " + value);
  }
}
