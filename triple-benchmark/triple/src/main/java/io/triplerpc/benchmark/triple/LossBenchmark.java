package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.benchmark.harness.BenchCertificates;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.GetUserRequest;
import io.triplerpc.benchmark.workload.proto.Payload;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserService;
import java.nio.file.Path;
import java.time.Duration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Issue 39's lossy link: 32 callers of getUser and one 8 MiB echo at the same time, on one connection, over
 * HTTP/2 (TLS) or HTTP/3 ({@code transport}), each call's time sampled. scripts/bench-loss.sh runs it with the
 * client in one network namespace and the server in another, joined by a relay that delays and drops packets
 * ({@code ServerProcess}'s {@code bench.server.netns} and {@code bench.server.address}); on loopback it runs too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(java.util.concurrent.TimeUnit.MILLISECONDS)
public class LossBenchmark {

  /** The download: 8 MiB, echoed (so 8 MiB each way). */
  static final int DOWNLOAD_BYTES = 8 << 20;
  private static final int MAX_MESSAGE = DOWNLOAD_BYTES + (1 << 20);

  @Param({"h2", "h3"})
  public String transport;

  private Path tls;
  private ServerProcess server;
  private TripleClient client;
  private UserService users;
  private GetUserRequest getUser;
  private Payload download;

  @Setup(Level.Trial)
  public void start() throws Exception {
    String address = ServerProcess.serverAddress();
    tls = BenchCertificates.make(address);
    server = ServerProcess.start(UserServer.class.getName(),
        "-D" + BenchTls.PROPERTY + "=" + tls,
        "-D" + UserServer.HOST_PROPERTY + "=" + address,
        "-D" + UserServer.HTTP3_PROPERTY + "=" + transport.equals("h3"),
        "-D" + UserServer.MAX_MESSAGE_PROPERTY + "=" + MAX_MESSAGE);
    TripleClient.Builder builder = TripleClient.builder()
        .address(address, server.port())
        .tls(BenchTls.client(tls, BenchTls.provider()))
        .maxInboundMessageSize(MAX_MESSAGE);
    if (transport.equals("h3")) {
      builder.http3();
    } else if (!transport.equals("h2")) {
      throw new IllegalArgumentException("transport is h2 or h3, not " + transport);
    }
    client = builder.build();
    users = client.proxy(UserService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(300)));
    getUser = UserFixtures.GET_USER;
    download = UserFixtures.payload(DOWNLOAD_BYTES);
    Check.getUser(users.getUser(getUser));
    Payload small = UserFixtures.payload(1024);
    Check.echo(small, users.echo(small));
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    client.close();
    server.close();
    BenchCertificates.delete(tls);
  }

  @Benchmark
  @Group("link")
  @GroupThreads(32)
  public User getUser() {
    return users.getUser(getUser);
  }

  @Benchmark
  @Group("link")
  @GroupThreads(1)
  public Payload download() {
    return users.echo(download);
  }
}
