package io.triplerpc.benchmark.triple;

import io.triplerpc.TripleServer;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.GetUserRequest;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserRestService;

/**
 * The Triple server of the REST benchmark ({@code scripts/bench-rest.sh}), run in a JVM of its own:
 * {@code UserRestService} from {@code user_rest_service.proto}, whose {@code google.api.http} rules Triple
 * serves as REST ({@code GET /v1/users/{id}}, {@code POST /v1/users}) on the same port as gRPC, so that one
 * server is both the REST contender and the gRPC backend a grpc-gateway can be put in front of, with the
 * server's defaults ({@code -Dtriple.bench.executor=direct}: the service on the event loop).
 * {@code --port=N} (0 for a free one); prints {@code LISTENING <port>}, runs until killed.
 */
public final class UserRestServer implements UserRestService {

  @Override
  public User getUser(GetUserRequest request) {
    return UserFixtures.getUser(request);
  }

  @Override
  public CreateUserResponse createUser(User user) {
    return UserFixtures.createUser(user);
  }

  /** A started server with the service on {@code port} (0: a free one) at 127.0.0.1; {@code direct}: on the event loop. */
  static TripleServer start(int port, boolean direct) throws Exception {
    TripleServer.Builder builder = TripleServer.builder();
    if (direct) {
      builder.directExecutor();
    }
    return builder
        .host("127.0.0.1")
        .port(port)
        .addService(UserRestService.class, new UserRestServer())
        .build()
        .start();
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    for (String arg : args) {
      if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      }
    }
    // -Dtriple.bench.executor=direct: the service on the event loop, to measure what the hand-off to the
    // service pool costs a REST request (not a default: the published run uses the server's defaults).
    TripleServer server = start(port, "direct".equals(System.getProperty("triple.bench.executor")));
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    System.out.println("LISTENING " + server.port());
    server.awaitTermination();
  }
}
