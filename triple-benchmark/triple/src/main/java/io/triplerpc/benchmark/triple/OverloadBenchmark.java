package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.UserService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Open-loop overload: getUser offered at a fixed rate, {@code load} times what {@link OverloadServer} can
 * serve ({@code WORKERS / SERVICE_NANOS}), each call with a 1 s deadline, against that server with the
 * adaptive concurrency limit {@code off} or {@code adaptive}. The one JMH thread sends each call at its
 * intended time without waiting for answers (its ops/s is the offered rate); latency counts from the
 * intended time, so queueing is never hidden. Goodput, refusals, timeouts and the latency of the calls
 * that succeeded come from {@link OverloadProfiler}:
 * {@code java -jar triple-benchmark/triple/target/triple-benchmarks.jar Overload -prof io.triplerpc.benchmark.triple.OverloadProfiler}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class OverloadBenchmark {

  /** The server's limiter: {@code off} or {@code adaptive}. */
  @Param({"off", "adaptive"})
  public String limiter;

  /** Offered rate as a multiple of the server's capacity. */
  @Param({"0.5", "2"})
  public double load;

  private ServerProcess server;
  private TripleClient client;
  private UserService users;
  private long intervalNanos;
  private long nextSendNanos;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(OverloadServer.class.getName(), "-Dtriple.bench.limiter=" + limiter);
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    users = client.proxy(UserService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(1)));
    Check.getUser(users.getUserAsync(UserFixtures.GET_USER).get(10, TimeUnit.SECONDS));
    intervalNanos = Math.round(OverloadServer.SERVICE_NANOS / (OverloadServer.WORKERS * load));
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    // JMH's pause between iterations is not a backlog of calls to send at once.
    nextSendNanos = System.nanoTime();
  }

  @TearDown(Level.Iteration)
  public void endIteration() {
    OverloadOutcomes.INSTANCE.close();
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    client.close();
    server.close();
  }

  /** Sends the next call at its intended time; its outcome is recorded when it ends. */
  @Benchmark
  public void offer() {
    long intended = nextSendNanos;
    nextSendNanos += intervalNanos;
    for (long wait = intended - System.nanoTime(); wait > 0; wait = intended - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
    OverloadOutcomes outcomes = OverloadOutcomes.INSTANCE;
    users.getUserAsync(UserFixtures.GET_USER).whenComplete((user, failure) -> outcomes.record(intended, failure));
  }
}
