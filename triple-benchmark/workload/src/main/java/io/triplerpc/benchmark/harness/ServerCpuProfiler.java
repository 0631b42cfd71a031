package io.triplerpc.benchmark.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time the server JVM (and, for comparison, this client JVM) spent per benchmark operation, read from {@code /proc/<pid>/stat} around each
 * iteration ({@code -prof io.triplerpc.benchmark.harness.ServerCpuProfiler}). The client's own CPU is
 * not in it: each contender's server runs in a JVM of its own, so this is the server's cost alone.
 *
 * <p>Resolution is one clock tick (10 ms), fine over iterations of seconds.
 */
public final class ServerCpuProfiler implements InternalProfiler {

  /** USER_HZ, the unit of utime and stime; 100 on every Linux the JDK runs on. */
  private static final double NANOS_PER_TICK = 1e9 / 100;

  /** The server measured this iteration: the trial's tear-down may close it before afterIteration. */
  private ServerProcess server;
  private long ticksBefore;
  private long clientTicksBefore;

  @Override
  public String getDescription() {
    return "Server JVM CPU time per operation, from /proc/<pid>/stat";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    server = ServerProcess.current();
    ticksBefore = server == null ? -1 : server.cpuTicks();
    clientTicksBefore = cpuTicks(ProcessHandle.current().pid());
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long ops = result.getMetadata().getMeasuredOps();
    if (server == null || ticksBefore < 0 || ops <= 0) {
      return List.of();
    }
    long ticks = server.cpuTicks();
    if (ticks < 0) {
      return List.of();
    }
    double microsPerOp = (ticks - ticksBefore) * NANOS_PER_TICK / 1000.0 / ops;
    long clientTicks = cpuTicks(ProcessHandle.current().pid());
    double clientMicrosPerOp = (clientTicks - clientTicksBefore) * NANOS_PER_TICK / 1000.0 / ops;
    return List.of(
        new ScalarResult("server.cpu", microsPerOp, "us/op", AggregationPolicy.AVG),
        // The benchmark JVM's own CPU, JMH's threads included: the client's side of the cost.
        new ScalarResult("client.cpu", clientMicrosPerOp, "us/op", AggregationPolicy.AVG));
  }

  /** utime + stime of the process, in clock ticks, or -1 when it cannot be read. */
  static long cpuTicks(long pid) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException | UnsupportedOperationException e) {
      return -1;
    }
    return parseCpuTicks(stat);
  }

  /** The fields after the command name (which may hold spaces) start at field 3: utime is 14, stime 15. */
  static long parseCpuTicks(String stat) {
    int end = stat.lastIndexOf(')');
    if (end < 0) {
      return -1;
    }
    String[] fields = stat.substring(end + 2).trim().split(" ");
    if (fields.length < 13) {
      return -1;
    }
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
