package io.triplerpc.benchmark.triple;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
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
import io.triplerpc.benchmark.workload.proto.UserService;
import java.nio.file.Path;

/**
 * The Triple server of the benchmark, run in a JVM of its own: {@code --port=N} (0 for a free one);
 * observed as {@code -Dtriple.bench.observe} says ({@link Observability}).
 * Prints {@code LISTENING <port>} once it serves, then runs until killed.
 */
public final class UserServer implements UserService {

  /**
   * System property: the largest flow-control window, in bytes, for the server and the benchmark's
   * clients; the initial window (1 MiB) for windows that never grow. Unset: the default.
   */
  public static final String MAX_WINDOW_PROPERTY = "triple.bench.maxWindow";

  /** {@code client} with the largest window {@link #MAX_WINDOW_PROPERTY} asks for, if any. */
  public static TripleClient.Builder withMaxWindow(TripleClient.Builder client) {
    Integer maxWindow = Integer.getInteger(MAX_WINDOW_PROPERTY);
    return maxWindow == null ? client : client.maxWindowSize(maxWindow);
  }

  @Override
  public ExistUserResponse existUser(ExistUserRequest request) {
    return UserFixtures.existUser(request);
  }

  @Override
  public CreateUserResponse createUser(User user) {
    return UserFixtures.createUser(user);
  }

  @Override
  public User getUser(GetUserRequest request) {
    return UserFixtures.getUser(request);
  }

  @Override
  public Page listUser(ListUserRequest request) {
    return UserFixtures.listUser(request);
  }

  @Override
  public Page listUserLarge(ListUserRequest request) {
    return UserFixtures.listUserLarge(request);
  }

  @Override
  public void streamUsers(StreamUsersRequest request, StreamObserver<User> users) {
    for (User user : UserFixtures.streamUsers(request)) {
      users.onNext(user);
    }
    users.onCompleted();
  }

  @Override
  public Payload echo(Payload request) {
    return UserFixtures.echo(request);
  }

  /** The largest message the server takes. */
  static final String MAX_MESSAGE_PROPERTY = "triple.bench.maxMessage";
  /** Serve HTTP/3 too. */
  static final String HTTP3_PROPERTY = "triple.bench.http3";
  /** The address to serve on; 127.0.0.1 by default. */
  static final String HOST_PROPERTY = "triple.bench.host";

  public static void main(String[] args) throws Exception {
    int port = 0;
    for (String arg : args) {
      if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      }
    }
    // Observed as -Dtriple.bench.observe says (ObservabilityBenchmark); not at all by default.
    Observability observability = Observability.ofServer();
    TripleServer.Builder builder = observability.server(TripleServer.builder());
    // -Dtriple.bench.executor=direct: services on the event loop (scripts/bench.sh's triple-direct).
    if ("direct".equals(System.getProperty("triple.bench.executor"))) {
      builder.directExecutor();
    }
    Integer maxWindow = Integer.getInteger(MAX_WINDOW_PROPERTY);
    if (maxWindow != null) {
      builder.maxWindowSize(maxWindow);
    }
    // -Dtriple.bench.maxMessage: a larger message than the default 4 MiB (LossBenchmark's 8 MiB echo).
    Integer maxMessage = Integer.getInteger(MAX_MESSAGE_PROPERTY);
    if (maxMessage != null) {
      builder.maxInboundMessageSize(maxMessage);
    }
    // -Dtriple.bench.tls.dir=<PEM directory>, -Dtriple.bench.tls.provider=JDK|OPENSSL: TLS (FeatureCostBenchmark).
    String tlsDirectory = System.getProperty(BenchTls.PROPERTY);
    if (tlsDirectory != null) {
      builder.tls(BenchTls.server(Path.of(tlsDirectory), BenchTls.provider()));
    }
    // -Dtriple.bench.http3=true: HTTP/3 beside TCP, on the UDP port of the TCP port's number (needs TLS; LossBenchmark).
    if (Boolean.getBoolean(HTTP3_PROPERTY)) {
      builder.http3();
    }
    TripleServer server = builder
        // -Dtriple.bench.host: the address to serve on, another than loopback behind a lossy link (LossBenchmark).
        .host(System.getProperty(HOST_PROPERTY, "127.0.0.1"))
        .port(port)
        .addService(UserService.class, new UserServer())
        .build()
        .start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      // Read by whoever studies a run (scripts/bench.sh keeps the server's log): how well writes batched.
      System.out.println("WRITES " + server.writeStats());
      server.shutdownNow();
    }));
    System.out.println("LISTENING " + server.port());
    server.awaitTermination();
  }
}
