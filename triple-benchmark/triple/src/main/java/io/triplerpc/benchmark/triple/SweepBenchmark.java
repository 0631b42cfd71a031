package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.harness.SweepParameters;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.Payload;
import io.triplerpc.benchmark.workload.proto.UserService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The sweeps of scripts/bench.sh through Triple: echo of {@code payload} bytes each way, by JMH's
 * threads spread over {@code connections} clients (one connection each) to one server in a JVM of its
 * own. The threads are JMH's {@code -t}.
 */
@State(Scope.Benchmark)
public class SweepBenchmark extends SweepParameters {

  private final List<TripleClient> clients = new ArrayList<>();
  private UserService[] services;
  private Payload request;
  private ServerProcess server;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(UserServer.class.getName());
    request = UserFixtures.payload(payload);
    services = new UserService[connections];
    CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
    int port = clientPort(server.port());
    for (int i = 0; i < connections; i++) {
      TripleClient client = UserServer.withMaxWindow(TripleClient.builder().address("127.0.0.1", port)).build();
      clients.add(client);
      services[i] = client.proxy(UserService.class, options);
      Check.echo(request, services[i].echo(request));
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    for (TripleClient client : clients) {
      client.close();
    }
    closeLink();
    server.close();
  }

  /** A JMH thread's client: thread i calls through client i modulo the connections. */
  @State(Scope.Thread)
  public static class Caller {
    UserService users;

    @Setup(Level.Trial)
    public void pick(SweepBenchmark benchmark) {
      users = benchmark.nextOf(benchmark.services);
    }
  }

  @Benchmark
  public Payload echo(Caller caller) {
    return caller.users.echo(request);
  }
}
