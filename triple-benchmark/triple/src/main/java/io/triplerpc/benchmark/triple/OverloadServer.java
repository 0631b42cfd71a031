package io.triplerpc.benchmark.triple;

import io.triplerpc.AdaptiveConcurrencyLimit;
import io.triplerpc.StreamObserver;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The server of {@link OverloadBenchmark}, in a JVM of its own: getUser holds one of {@link #WORKERS}
 * service threads for {@link #SERVICE_NANOS} (a call to a database, say), so the server can answer at
 * most {@code WORKERS / SERVICE_NANOS} calls a second whatever the CPU. {@code -Dtriple.bench.limiter=adaptive}
 * puts the adaptive concurrency limit in front; {@code off} (the default) lets calls queue for the
 * workers. Prints {@code LISTENING <port>}, then runs until killed.
 */
public final class OverloadServer implements UserService {

  /** Service threads. */
  static final int WORKERS = 4;
  /** What a call holds a service thread for. */
  static final long SERVICE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  /** The other methods, answered at once as by the main benchmark's server. */
  private final UserServer others = new UserServer();

  @Override
  public ExistUserResponse existUser(ExistUserRequest request) {
    return others.existUser(request);
  }

  @Override
  public CreateUserResponse createUser(User user) {
    return others.createUser(user);
  }

  @Override
  public Page listUser(ListUserRequest request) {
    return others.listUser(request);
  }

  @Override
  public Page listUserLarge(ListUserRequest request) {
    return others.listUserLarge(request);
  }

  @Override
  public void streamUsers(StreamUsersRequest request, StreamObserver<User> users) {
    others.streamUsers(request, users);
  }

  @Override
  public Payload echo(Payload request) {
    return others.echo(request);
  }

  @Override
  public User getUser(GetUserRequest request) {
    long until = System.nanoTime() + SERVICE_NANOS;
    for (long left = SERVICE_NANOS; left > 0; left = until - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
    return UserFixtures.getUser(request);
  }

  public static void main(String[] args) throws Exception {
    ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
    TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(0)
        .executor(workers)
        .addService(UserService.class, new OverloadServer());
    if ("adaptive".equals(System.getProperty("triple.bench.limiter", "off"))) {
      builder.adaptiveConcurrencyLimit(AdaptiveConcurrencyLimit.vegas());
    }
    TripleServer server = builder.build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    System.out.println("LISTENING " + server.port());
    server.awaitTermination();
    workers.shutdownNow();
  }
}
