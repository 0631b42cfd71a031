package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What observing calls costs: getUser and streamUsers with the client and its server (a JVM of its own)
 * observed the same way ({@link Observability}: off, a call observer that records nothing, metrics, tracing
 * on a no-op OpenTelemetry, tracing with the SDK sampling 1%, metrics and that tracing). Not part of scripts/bench.sh's table; run it alone:
 * {@code java -jar triple-benchmark/triple/target/triple-benchmarks.jar ObservabilityBenchmark -t 32 -f 1}.
 */
@State(Scope.Benchmark)
public class ObservabilityBenchmark {

  @Param({"off", "observer-noop", "metrics", "tracing-noop", "tracing-1pct", "metrics+tracing-1pct"})
  public String observe;

  private ServerProcess server;
  private Observability observability;
  private TripleClient client;
  private UserService users;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(UserServer.class.getName(), "-D" + Observability.PROPERTY + "=" + observe);
    observability = Observability.of(observe);
    String target = "127.0.0.1:" + server.port();
    client = observability.client(TripleClient.builder().address("127.0.0.1", server.port()), target).build();
    users = client.proxy(UserService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60)));
    Check.getUser(getUser());
    Check.streamUsers(streamUsers());
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    client.close();
    observability.close();
    server.close();
  }

  @Benchmark
  public User getUser() {
    return users.getUser(UserFixtures.GET_USER);
  }

  /** One call streaming 1,000 users. */
  @Benchmark
  public int streamUsers() throws Exception {
    TripleBenchmark.CountingObserver observer = new TripleBenchmark.CountingObserver();
    users.streamUsers(UserFixtures.STREAM_USERS, observer);
    return observer.done.get(60, TimeUnit.SECONDS);
  }
}
