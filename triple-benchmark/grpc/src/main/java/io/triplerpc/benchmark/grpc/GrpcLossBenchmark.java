package io.triplerpc.benchmark.grpc;

import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.triplerpc.benchmark.harness.BenchCertificates;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.Payload;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserServiceGrpc;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Triple's {@code LossBenchmark} through grpc-java: 32 callers of getUser and one 8 MiB echo at the same time,
 * on one HTTP/2 connection with TLS, each call's time sampled; scripts/bench-loss.sh puts a lossy link between
 * client and server.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class GrpcLossBenchmark {

  private static final int DOWNLOAD_BYTES = 8 << 20;
  private static final int MAX_MESSAGE = DOWNLOAD_BYTES + (1 << 20);

  private Path tls;
  private ServerProcess server;
  private ManagedChannel channel;
  private UserServiceGrpc.UserServiceBlockingStub users;
  private Payload download;

  @Setup(Level.Trial)
  public void start() throws Exception {
    String address = ServerProcess.serverAddress();
    tls = BenchCertificates.make(address);
    server = ServerProcess.start(GrpcUserServer.class.getName(),
        "-Dtriple.bench.tls.dir=" + tls,
        "-Dtriple.bench.host=" + address,
        "-Dtriple.bench.maxMessage=" + MAX_MESSAGE);
    channel = NettyChannelBuilder.forAddress(address, server.port())
        .sslContext(GrpcSslContexts.forClient().trustManager(tls.resolve(BenchCertificates.CERTIFICATE).toFile()).build())
        .maxInboundMessageSize(MAX_MESSAGE)
        .build();
    users = UserServiceGrpc.newBlockingStub(channel);
    download = UserFixtures.payload(DOWNLOAD_BYTES);
    Check.getUser(getUser());
    Payload small = UserFixtures.payload(1024);
    Check.echo(small, users.withDeadlineAfter(300, TimeUnit.SECONDS).echo(small));
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.close();
    BenchCertificates.delete(tls);
  }

  @Benchmark
  @Group("link")
  @GroupThreads(32)
  public User getUser() {
    return users.withDeadlineAfter(300, TimeUnit.SECONDS).getUser(UserFixtures.GET_USER);
  }

  @Benchmark
  @Group("link")
  @GroupThreads(1)
  public Payload download() {
    return users.withDeadlineAfter(300, TimeUnit.SECONDS).echo(download);
  }
}
