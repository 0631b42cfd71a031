package io.triplerpc.benchmark.dubbo;

import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.harness.SweepParameters;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.Payload;
import java.util.ArrayList;
import java.util.List;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The sweeps of scripts/bench.sh through Dubbo: echo of {@code payload} bytes each way, by JMH's
 * threads spread over {@code connections} references, each in a framework model of its own (one
 * connection each), to one server in a JVM of its own.
 */
@State(Scope.Benchmark)
public class DubboSweepBenchmark extends SweepParameters {

  private final List<FrameworkModel> frameworks = new ArrayList<>();
  private DubboUserService[] references;
  private Payload request;
  private ServerProcess server;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(DubboUserServer.class.getName());
    try {
      request = UserFixtures.payload(payload);
      references = new DubboUserService[connections];
      int port = clientPort(server.port());
      for (int i = 0; i < connections; i++) {
        FrameworkModel framework = new FrameworkModel();
        frameworks.add(framework);
        references[i] = DubboBenchmark.reference(framework, port);
        Check.echo(request, references[i].echo(request));
      }
    } catch (Exception | Error e) {
      // JMH skips the tear-down of a failed set-up: the server must not outlive it.
      stop();
      throw e;
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    try {
      for (FrameworkModel framework : frameworks) {
        framework.destroy();
      }
      frameworks.clear();
      closeLink();
    } finally {
      server.close();
    }
  }

  /** A JMH thread's reference: thread i calls through reference i modulo the connections. */
  @State(Scope.Thread)
  public static class Caller {
    DubboUserService users;

    @Setup(Level.Trial)
    public void pick(DubboSweepBenchmark benchmark) {
      users = benchmark.nextOf(benchmark.references);
    }
  }

  @Benchmark
  public Payload echo(Caller caller) {
    return caller.users.echo(request);
  }
}
