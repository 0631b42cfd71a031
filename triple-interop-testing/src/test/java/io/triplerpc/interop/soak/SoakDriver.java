package io.triplerpc.interop.soak;

import io.triplerpc.testing.LeakDetectionExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code scripts/soak.sh}'s program: runs a soak ({@link Soak}), writes its report ({@link SoakReport}) and
 * ends with the summary line; exits 1 when a goal was missed. Flags ({@code --name value} or
 * {@code --name=value}):
 *
 * <pre>
 * --duration 1h           how long the load runs (s, m or h)
 * --sample-interval 60s   how often both sides are sampled
 * --warmup D              left out of the fits: 5 min for runs of an hour or more, a twelfth of shorter ones
 * --rate 200              calls started per second (open loop)
 * --reconnect-every 10s   how often one of the four clients is replaced by a new one
 * --large-size 1048576    bytes of the large messages, each way
 * --server-jvm "OPTS"     options of the server's JVM (default -Xmx256m)
 * --out DIR               where the CSV, the chart, the summary and the server's log go
 * </pre>
 */
public final class SoakDriver {

  private SoakDriver() {}

  public static void main(String[] args) throws Exception {
    // Installs the counting leak detectors before any Netty buffer class is loaded in this JVM.
    LeakDetectionExtension.collectLeaks();
    Map<String, String> flags = flags(args);
    Duration duration = duration(flags.getOrDefault("duration", "1h"));
    Duration warmup = flags.containsKey("warmup") ? duration(flags.get("warmup"))
        : duration.compareTo(Duration.ofHours(1)) >= 0 ? Duration.ofMinutes(5) : duration.dividedBy(12);
    Soak.Config config = new Soak.Config(duration, duration(flags.getOrDefault("sample-interval", "60s")), warmup,
        Double.parseDouble(flags.getOrDefault("rate", "200")), duration(flags.getOrDefault("reconnect-every", "10s")),
        Integer.parseInt(flags.getOrDefault("large-size", "1048576")),
        new ArrayList<>(Arrays.asList(flags.getOrDefault("server-jvm", "-Xmx256m").trim().split("\\s+"))),
        Path.of(flags.getOrDefault("out", "target/soak")));
    Soak.Run run = Soak.run(config);
    SoakReport report = new SoakReport(run);
    report.write();
    List<String> driverLeaks = LeakDetectionExtension.collectLeaks();
    for (String line : report.lines()) {
      System.out.println(line);
    }
    System.out.println("soak driver: leak reports in the driver's JVM: " + driverLeaks.size()
        + "; files in " + config.out().toAbsolutePath());
    System.exit(report.passed() && driverLeaks.isEmpty() ? 0 : 1);
  }

  private static Map<String, String> flags(String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("Flags look like --name value; got: " + arg);
      }
      int eq = arg.indexOf('=');
      if (eq > 0) {
        flags.put(arg.substring(2, eq), arg.substring(eq + 1));
      } else if (i + 1 < args.length) {
        flags.put(arg.substring(2), args[++i]);
      } else {
        throw new IllegalArgumentException(arg + " needs a value");
      }
    }
    return flags;
  }

  /** {@code 90s}, {@code 10m}, {@code 1h}, or {@code 500ms}. */
  static Duration duration(String text) {
    String t = text.trim().toLowerCase(java.util.Locale.ROOT);
    if (t.endsWith("ms")) {
      return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
    }
    long n = Long.parseLong(t.substring(0, t.length() - 1));
    return switch (t.charAt(t.length() - 1)) {
      case 's' -> Duration.ofSeconds(n);
      case 'm' -> Duration.ofMinutes(n);
      case 'h' -> Duration.ofHours(n);
      default -> throw new IllegalArgumentException("A duration looks like 90s, 10m or 1h; got: " + text);
    };
  }
}
