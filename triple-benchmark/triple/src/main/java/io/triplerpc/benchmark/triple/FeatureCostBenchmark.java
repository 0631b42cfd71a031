package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserService;
import java.nio.file.Path;
import java.time.Duration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What each coming feature costs on getUser, as rows of one run (issue 19): {@code plain}; {@code tls}
 * (the JDK's provider, both sides); {@code tls-openssl} (OpenSSL from netty-tcnative, both sides); {@code metrics} and {@code tracing-1pct} (as {@link Observability}
 * sets them up, both sides); {@code retry-unused} (a retry policy on the client that nothing triggers).
 * Each case has a server JVM of its own, set up the same way. Run it alone:
 * {@code java -jar triple-benchmark/triple/target/triple-benchmarks.jar FeatureCostBenchmark -t 32 -f 1 -prof gc}.
 */
@State(Scope.Benchmark)
public class FeatureCostBenchmark {

  @Param({"plain", "tls", "tls-openssl", "metrics", "tracing-1pct", "retry-unused"})
  public String feature;

  private Path tlsDirectory;
  private ServerProcess server;
  private Observability observability;
  private TripleClient client;
  private UserService users;

  @Setup(Level.Trial)
  public void start() throws Exception {
    boolean observed = feature.equals("metrics") || feature.equals("tracing-1pct");
    String serverArgument;
    TlsConfig.Provider tls = feature.equals("tls") ? TlsConfig.Provider.JDK
        : feature.equals("tls-openssl") ? TlsConfig.Provider.OPENSSL : null;
    if (tls != null) {
      tlsDirectory = BenchTls.newCertificate();
      server = ServerProcess.start(UserServer.class.getName(), "-D" + BenchTls.PROPERTY + "=" + tlsDirectory,
          "-D" + BenchTls.PROVIDER_PROPERTY + "=" + tls.name());
    } else {
      server = ServerProcess.start(UserServer.class.getName(),
          "-D" + Observability.PROPERTY + "=" + (observed ? feature : "off"));
    }
    observability = Observability.of(observed ? feature : "off");
    String target = "127.0.0.1:" + server.port();
    TripleClient.Builder builder = observability.client(TripleClient.builder().address("127.0.0.1", server.port()),
        target);
    if (tls != null) {
      builder.tls(BenchTls.client(tlsDirectory, tls));
    }
    if (feature.equals("retry-unused")) {
      builder.retryPolicy(RetryPolicy.builder().maxAttempts(3).retryableStatusCodes(Status.Code.UNAVAILABLE).build(),
          "triple.benchmark.UserService");
    }
    client = builder.build();
    users = client.proxy(UserService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60)));
    Check.getUser(getUser());
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    client.close();
    observability.close();
    server.close();
    if (tlsDirectory != null) {
      BenchTls.delete(tlsDirectory);
    }
  }

  @Benchmark
  public User getUser() {
    return users.getUser(UserFixtures.GET_USER);
  }
}
