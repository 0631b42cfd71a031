package io.triplerpc.benchmark.grpc;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.harness.SweepParameters;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.Payload;
import io.triplerpc.benchmark.workload.proto.UserServiceGrpc;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The sweeps of scripts/bench.sh through grpc-java: echo of {@code payload} bytes each way with the
 * blocking stub, by JMH's threads spread over {@code connections} channels (one connection each) to one
 * server in a JVM of its own.
 */
@State(Scope.Benchmark)
public class GrpcSweepBenchmark extends SweepParameters {

  private final List<ManagedChannel> channels = new ArrayList<>();
  private UserServiceGrpc.UserServiceBlockingStub[] stubs;
  private Payload request;
  private ServerProcess server;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(GrpcUserServer.class.getName());
    request = UserFixtures.payload(payload);
    stubs = new UserServiceGrpc.UserServiceBlockingStub[connections];
    int port = clientPort(server.port());
    for (int i = 0; i < connections; i++) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
      channels.add(channel);
      stubs[i] = UserServiceGrpc.newBlockingStub(channel);
      Check.echo(request, stubs[i].withDeadlineAfter(60, TimeUnit.SECONDS).echo(request));
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    closeLink();
    server.close();
  }

  /** A JMH thread's channel: thread i calls through channel i modulo the connections. */
  @State(Scope.Thread)
  public static class Caller {
    UserServiceGrpc.UserServiceBlockingStub stub;

    @Setup(Level.Trial)
    public void pick(GrpcSweepBenchmark benchmark) {
      stub = benchmark.nextOf(benchmark.stubs);
    }
  }

  /** With a 60 s deadline per call, as Triple's and Dubbo's timeouts. */
  @Benchmark
  public Payload echo(Caller caller) {
    return caller.stub.withDeadlineAfter(60, TimeUnit.SECONDS).echo(request);
  }
}
