package io.triplerpc.benchmark.grpc;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserServiceGrpc;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What observing calls costs grpc-java, the counterpart of Triple's ObservabilityBenchmark: getUser and
 * streamUsers with the client and its server (a JVM of its own) observed the same way through grpc-java's
 * OpenTelemetry module ({@link GrpcObservability}). Tracing modes need
 * {@code GRPC_EXPERIMENTAL_ENABLE_OTEL_TRACING=true} in the environment:
 * {@code GRPC_EXPERIMENTAL_ENABLE_OTEL_TRACING=true java -jar triple-benchmark/grpc/target/grpc-benchmarks.jar
 * GrpcObservabilityBenchmark -t 32 -f 1}.
 */
@State(Scope.Benchmark)
public class GrpcObservabilityBenchmark {

  @Param({"off", "metrics", "tracing-1pct", "metrics+tracing-1pct"})
  public String observe;

  private ServerProcess server;
  private GrpcObservability observability;
  private ManagedChannel channel;
  private UserServiceGrpc.UserServiceBlockingStub blocking;
  private UserServiceGrpc.UserServiceStub async;

  @Setup(Level.Trial)
  public void start() throws Exception {
    observability = GrpcObservability.of(observe);
    server = ServerProcess.start(GrpcUserServer.class.getName(), "-D" + GrpcObservability.PROPERTY + "=" + observe);
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext();
    observability.configure(builder);
    channel = builder.build();
    blocking = UserServiceGrpc.newBlockingStub(channel);
    async = UserServiceGrpc.newStub(channel);
    Check.getUser(getUser());
    Check.streamUsers(streamUsers());
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    observability.close();
    server.close();
  }

  /** With a 60 s deadline, as Triple's ObservabilityBenchmark calls. */
  @Benchmark
  public User getUser() {
    return blocking.withDeadlineAfter(60, TimeUnit.SECONDS).getUser(UserFixtures.GET_USER);
  }

  /** One call streaming 1,000 users. */
  @Benchmark
  public int streamUsers() throws Exception {
    GrpcBenchmark.CountingObserver observer = new GrpcBenchmark.CountingObserver();
    async.withDeadlineAfter(60, TimeUnit.SECONDS).streamUsers(UserFixtures.STREAM_USERS, observer);
    return observer.done.get(60, TimeUnit.SECONDS);
  }
}
