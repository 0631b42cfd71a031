package io.triplerpc.benchmark.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/** The speed goals of the benchmark issue, checked against one run. */
final class Goals {

  /** The measure of the sweeps' goal (a row only when the run has sweeps). */
  static final String SWEEPS = "Sweeps: Triple ahead of grpc-java and Dubbo at every point";

  /** One goal: what is measured, the target, the measured ratio, and whether it is met (null: not measured). */
  record Goal(String measure, String goal, String measured, Boolean met) {}

  private Goals() {}

  static List<Goal> evaluate(Results r) {
    List<Goal> goals = new ArrayList<>();
    for (String benchmark : List.of("existUser", "createUser", "getUser", "listUser")) {
      goals.add(atLeast(benchmark + " vs grpc-java", 1.25, r.ops(benchmark, "triple"), r.ops(benchmark, "grpc")));
      goals.add(atLeast(benchmark + " vs Dubbo", 1.5, r.ops(benchmark, "triple"), r.ops(benchmark, "dubbo")));
    }
    goals.add(atLeast("getUserAsync vs grpc-java", 1.25, r.ops("getUserAsync", "triple"), r.ops("getUserAsync", "grpc")));
    goals.add(atLeast("listUserLarge vs grpc-java", 1.2, r.ops("listUserLarge", "triple"), r.ops("listUserLarge", "grpc")));
    Double grpcStream = r.ops("streamUsers", "grpc");
    Double dubboStream = r.ops("streamUsers", "dubbo");
    Double fasterPeer = grpcStream;
    if (fasterPeer == null || (dubboStream != null && dubboStream > fasterPeer)) {
      fasterPeer = dubboStream;
    }
    goals.add(atLeast("streamUsers vs the faster peer", 1.0, r.ops("streamUsers", "triple"), fasterPeer));
    goals.add(atMost("getUser p99 vs grpc-java", 0.8,
        Report.median(r, "getUser", "triple", f -> f.p99), Report.median(r, "getUser", "grpc", f -> f.p99)));
    goals.add(atMost("getUser client bytes/call vs grpc-java", 0.8,
        Report.median(r, "getUser", "triple", f -> f.bytesPerCall), Report.median(r, "getUser", "grpc", f -> f.bytesPerCall)));
    goals.add(h2load("h2load Triple server vs minimal Netty", 0.8, r, "triple"));
    goals.add(h2load("h2load Triple server, direct executor, vs minimal Netty", 0.9, r, "triple-direct"));
    goals.add(openLoopP99("open-loop p99 at 50% and 75% load vs grpc-java", 0.5, r, List.of("50", "75")));
    if (!r.sweeps.isEmpty()) {
      goals.add(sweeps(r));
    }
    return goals;
  }

  /**
   * The goal for the curves: at every point of every sweep, Triple's ops/s above both peers' and
   * its p99 below both (a tie is not ahead). A point on several curves (the base point) counts once, named
   * after its first curve. Measured: how many points are ahead, the points that are not and why; a point
   * without all three contenders leaves the goal unknown unless another point misses it.
   */
  private static Goal sweeps(Results r) {
    String goal = "ops/s above, p99 below both";
    Set<Map<String, Integer>> seen = new HashSet<>();
    List<String> behind = new ArrayList<>();
    List<String> incomplete = new ArrayList<>();
    int ahead = 0;
    for (Results.Sweep sweep : r.sweeps.values()) {
      for (Map.Entry<Integer, Map<String, Results.SweepPoint>> entry : sweep.points().entrySet()) {
        Map<String, Integer> point = new LinkedHashMap<>(sweep.base());
        point.put(sweep.dimension(), entry.getKey());
        if (!seen.add(point)) {
          continue;
        }
        String name = sweep.dimension() + " " + Report.sweepValue(sweep.dimension(), entry.getKey());
        Results.SweepPoint triple = entry.getValue().get("triple");
        Results.SweepPoint grpc = entry.getValue().get("grpc");
        Results.SweepPoint dubbo = entry.getValue().get("dubbo");
        if (triple == null || grpc == null || dubbo == null) {
          incomplete.add(name);
          continue;
        }
        List<String> why = new ArrayList<>();
        if (triple.opsPerSecond() <= grpc.opsPerSecond()) {
          why.add("ops/s vs grpc-java");
        }
        if (triple.opsPerSecond() <= dubbo.opsPerSecond()) {
          why.add("ops/s vs Dubbo");
        }
        if (triple.p99Micros() >= grpc.p99Micros()) {
          why.add("p99 vs grpc-java");
        }
        if (triple.p99Micros() >= dubbo.p99Micros()) {
          why.add("p99 vs Dubbo");
        }
        if (why.isEmpty()) {
          ahead++;
        } else {
          behind.add(name + " (" + String.join(", ", why) + ")");
        }
      }
    }
    StringBuilder measured = new StringBuilder(String.format(Locale.ROOT, "ahead at %d of %d points",
        ahead, seen.size()));
    if (!behind.isEmpty()) {
      measured.append("; behind at ").append(String.join(", ", behind));
    }
    if (!incomplete.isEmpty()) {
      measured.append("; not all three measured at ").append(String.join(", ", incomplete));
    }
    Boolean met = !behind.isEmpty() ? Boolean.FALSE : incomplete.isEmpty() ? Boolean.TRUE : null;
    return new Goal(SWEEPS, goal, measured.toString(), met);
  }

  /**
   * Triple's open-loop p99 against grpc-java's at each of the loads (each server at its own maximum's
   * share), every ratio at most the target; measured: the ratios, in the order of the loads.
   */
  private static Goal openLoopP99(String measure, double target, Results r, List<String> loads) {
    String goal = String.format(Locale.ROOT, "≤ %.2f×", target);
    List<String> ratios = new ArrayList<>();
    boolean met = true;
    for (String load : loads) {
      GhzRun ours = r.ghz("triple", load);
      GhzRun theirs = r.ghz("grpc", load);
      if (ours == null || theirs == null || ours.p99() == null || theirs.p99() == null || theirs.p99() == 0) {
        return new Goal(measure, goal, "–", null);
      }
      double ratio = ours.p99() / theirs.p99();
      ratios.add(String.format(Locale.ROOT, "%.2f×", ratio));
      met &= ratio <= target;
    }
    return new Goal(measure, goal, String.join(", ", ratios), met);
  }

  /**
   * A server's h2load rate against the minimal Netty server's at each stream count of
   * {@link Report#H2LOAD_STREAMS}: met only if at least the target at every one. Measured: the ratio at
   * each count, then the counts that miss; a count not measured ("–") leaves the goal unknown unless
   * another count already misses it.
   */
  private static Goal h2load(String measure, double target, Results r, String server) {
    String goal = String.format(Locale.ROOT, "≥ %.2f×", target);
    List<String> ratios = new ArrayList<>();
    List<String> missed = new ArrayList<>();
    int measuredCounts = 0;
    for (int streams : Report.H2LOAD_STREAMS) {
      OptionalDouble ours = r.h2loadRate(server, streams);
      OptionalDouble netty = r.h2loadRate("netty", streams);
      if (ours.isEmpty() || netty.isEmpty() || netty.getAsDouble() == 0) {
        ratios.add(streams + " streams: –");
        continue;
      }
      measuredCounts++;
      double ratio = ours.getAsDouble() / netty.getAsDouble();
      ratios.add(String.format(Locale.ROOT, "%d streams: %.2f×", streams, ratio));
      if (ratio < target) {
        missed.add(String.valueOf(streams));
      }
    }
    if (measuredCounts == 0) {
      return new Goal(measure, goal, "–", null);
    }
    String measured = String.join(", ", ratios);
    if (!missed.isEmpty()) {
      return new Goal(measure, goal, measured + " (missed at " + String.join(" and ", missed) + " streams)", false);
    }
    return new Goal(measure, goal, measured, measuredCounts < ratios.size() ? null : true);
  }

  private static Goal atLeast(String measure, double target, Double ours, Double theirs) {
    String goal = String.format(Locale.ROOT, "≥ %.2f×", target);
    if (ours == null || theirs == null || theirs == 0) {
      return new Goal(measure, goal, "–", null);
    }
    double ratio = ours / theirs;
    return new Goal(measure, goal, String.format(Locale.ROOT, "%.2f×", ratio), ratio >= target);
  }

  private static Goal atMost(String measure, double target, Double ours, Double theirs) {
    String goal = String.format(Locale.ROOT, "≤ %.2f×", target);
    if (ours == null || theirs == null || theirs == 0) {
      return new Goal(measure, goal, "–", null);
    }
    double ratio = ours / theirs;
    return new Goal(measure, goal, String.format(Locale.ROOT, "%.2f×", ratio), ratio <= target);
  }
}
