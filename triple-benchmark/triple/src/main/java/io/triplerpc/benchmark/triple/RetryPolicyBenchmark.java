package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.TripleClient;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserService;
import java.time.Duration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What an enabled retry policy costs when nothing fails: getUser against one server through a client
 * without a policy ({@link #plainGetUser}) and through one whose policy covers the service
 * ({@link #retryPolicyGetUser}: the attempt bookkeeping and the replay buffer). Not part of
 * scripts/bench.sh's table; run it alone:
 * {@code java -jar triple-benchmark/triple/target/triple-benchmarks.jar RetryPolicyBenchmark -t 32 -f 1 -prof gc}.
 */
@State(Scope.Benchmark)
public class RetryPolicyBenchmark {

  private ServerProcess server;
  private TripleClient plain;
  private TripleClient retrying;
  private UserService plainUsers;
  private UserService retryingUsers;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(UserServer.class.getName());
    CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
    plain = TripleClient.builder().address("127.0.0.1", server.port()).build();
    plainUsers = plain.proxy(UserService.class, options);
    retrying = TripleClient.builder().address("127.0.0.1", server.port())
        .retryPolicy(RetryPolicy.builder().maxAttempts(3).retryableStatusCodes(Status.Code.UNAVAILABLE).build(),
            "triple.benchmark.UserService")
        .build();
    retryingUsers = retrying.proxy(UserService.class, options);
    Check.getUser(plainGetUser());
    Check.getUser(retryPolicyGetUser());
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    plain.close();
    retrying.close();
    server.close();
  }

  @Benchmark
  public User plainGetUser() {
    return plainUsers.getUser(UserFixtures.GET_USER);
  }

  @Benchmark
  public User retryPolicyGetUser() {
    return retryingUsers.getUser(UserFixtures.GET_USER);
  }
}
