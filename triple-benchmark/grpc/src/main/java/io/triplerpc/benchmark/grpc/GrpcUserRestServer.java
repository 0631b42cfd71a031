package io.triplerpc.benchmark.grpc;

import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.GetUserRequest;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserRestServiceGrpc;
import java.net.InetSocketAddress;

/**
 * grpc-java's server of the REST benchmark ({@code scripts/bench-rest.sh}): {@code UserRestService} from
 * {@code user_rest_service.proto}, the backend that grpc-gateway, generated from the same file, transcodes
 * REST to, as grpc-java users deploy it. The generated base class and {@code NettyServerBuilder} with its
 * defaults, as {@link GrpcUserServer}. {@code --port=N} (0 for a free one); prints {@code LISTENING <port>},
 * runs until killed.
 */
public final class GrpcUserRestServer extends UserRestServiceGrpc.UserRestServiceImplBase {

  @Override
  public void getUser(GetUserRequest request, StreamObserver<User> responses) {
    responses.onNext(UserFixtures.getUser(request));
    responses.onCompleted();
  }

  @Override
  public void createUser(User request, StreamObserver<CreateUserResponse> responses) {
    responses.onNext(UserFixtures.createUser(request));
    responses.onCompleted();
  }

  public static void main(String[] args) throws Exception {
    int port = GrpcUserServer.portOf(args);
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(new GrpcUserRestServer())
        .build()
        .start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    System.out.println("LISTENING " + server.getPort());
    server.awaitTermination();
  }
}
