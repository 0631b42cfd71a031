package io.triplerpc.benchmark.grpc;

import io.grpc.Server;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.triplerpc.benchmark.harness.BenchCertificates;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.ExistUserRequest;
import io.triplerpc.benchmark.workload.proto.ExistUserResponse;
import io.triplerpc.benchmark.workload.proto.GetUserRequest;
import io.triplerpc.benchmark.workload.proto.ListUserRequest;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.Payload;
import io.triplerpc.benchmark.workload.proto.StreamUsersRequest;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserServiceGrpc;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * grpc-java's server of the benchmark, as a grpc-java user would write it: the generated base class,
 * {@code NettyServerBuilder} with its defaults (a cached executor), the same fixtures as every
 * contender. {@code --port=N} (0 for a free one); prints {@code LISTENING <port>}, runs until killed.
 * Observed as {@code -Dtriple.bench.observe} says ({@link GrpcObservability}; off by default).
 */
public final class GrpcUserServer extends UserServiceGrpc.UserServiceImplBase {

  @Override
  public void existUser(ExistUserRequest request, StreamObserver<ExistUserResponse> responses) {
    responses.onNext(UserFixtures.existUser(request));
    responses.onCompleted();
  }

  @Override
  public void createUser(User request, StreamObserver<CreateUserResponse> responses) {
    responses.onNext(UserFixtures.createUser(request));
    responses.onCompleted();
  }

  @Override
  public void getUser(GetUserRequest request, StreamObserver<User> responses) {
    responses.onNext(UserFixtures.getUser(request));
    responses.onCompleted();
  }

  @Override
  public void listUser(ListUserRequest request, StreamObserver<Page> responses) {
    responses.onNext(UserFixtures.listUser(request));
    responses.onCompleted();
  }

  @Override
  public void listUserLarge(ListUserRequest request, StreamObserver<Page> responses) {
    responses.onNext(UserFixtures.listUserLarge(request));
    responses.onCompleted();
  }

  @Override
  public void streamUsers(StreamUsersRequest request, StreamObserver<User> responses) {
    for (User user : UserFixtures.streamUsers(request)) {
      responses.onNext(user);
    }
    responses.onCompleted();
  }

  @Override
  public void echo(Payload request, StreamObserver<Payload> responses) {
    responses.onNext(UserFixtures.echo(request));
    responses.onCompleted();
  }

  /** The port a contender's main is told ({@code --port=N}), 0 for any. */
  static int portOf(String[] args) {
    int port = 0;
    for (String arg : args) {
      if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      }
    }
    return port;
  }

  public static void main(String[] args) throws Exception {
    int port = portOf(args);
    // -Dtriple.bench.host, -Dtriple.bench.tls.dir, -Dtriple.bench.maxMessage: as Triple's UserServer takes them
    // (GrpcLossBenchmark, behind a lossy link).
    String host = System.getProperty("triple.bench.host", "127.0.0.1");
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
        .addService(new GrpcUserServer());
    String tls = System.getProperty("triple.bench.tls.dir");
    if (tls != null) {
      builder.sslContext(GrpcSslContexts.forServer(Path.of(tls, BenchCertificates.CERTIFICATE).toFile(),
          Path.of(tls, BenchCertificates.KEY).toFile()).build());
    }
    Integer maxMessage = Integer.getInteger("triple.bench.maxMessage");
    if (maxMessage != null) {
      builder.maxInboundMessageSize(maxMessage);
    }
    GrpcObservability.ofServer().configure(builder);
    Server server = builder.build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    System.out.println("LISTENING " + server.getPort());
    server.awaitTermination();
  }
}
