package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.benchmark.harness.CallWindow;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.harness.WriteStatsProfiler;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.ExistUserResponse;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserService;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The workload through Triple: one client, one connection, shared by every JMH thread; the server in a
 * JVM of its own. Every call is made and checked once before measuring.
 */
@State(Scope.Benchmark)
public class TripleBenchmark {

  /** Calls in flight per thread in getUserAsync. */
  static final int ASYNC_WINDOW = 64;

  /** The getUserAsync windows of this trial, idle before the client closes. */
  private final CallWindow.Group windows = new CallWindow.Group();

  private ServerProcess server;
  private TripleClient client;
  private UserService users;
  private UserService usersAsync;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(UserServer.class.getName(), ablationFlags());
    client = UserServer.withMaxWindow(TripleClient.builder().address("127.0.0.1", server.port())).build();
    TripleClient measured = client;
    WriteStatsProfiler.source(() -> measured.writeStats().commands(), () -> measured.writeStats().flushes());
    CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
    users = client.proxy(UserService.class, options);
    usersAsync = client.proxy(UserService.class, options);
    verify();
  }

  /** One call of each kind, answers checked: a broken adapter must not post a score. */
  void verify() throws Exception {
    Check.existUser(existUser());
    Check.createUser(createUser());
    Check.getUser(getUser());
    Check.listUser(listUser());
    Check.listUserLarge(listUserLarge());
    Check.streamUsers(streamUsers());
    Check.getUser(usersAsync.getUserAsync(UserFixtures.GET_USER).get(60, TimeUnit.SECONDS));
  }

  /** The server runs with the same ablation switches as this JVM, so a mechanism is off on both sides. */
  static String[] ablationFlags() {
    return System.getProperties().stringPropertyNames().stream()
        .filter(name -> name.startsWith("io.triplerpc."))
        .map(name -> "-D" + name + "=" + System.getProperty(name))
        .toArray(String[]::new);
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    windows.awaitIdle();
    WriteStatsProfiler.source(null, null);
    client.close();
    server.close();
  }

  @Benchmark
  public ExistUserResponse existUser() {
    return users.existUser(UserFixtures.EXIST_USER);
  }

  @Benchmark
  public CreateUserResponse createUser() {
    return users.createUser(UserFixtures.CREATE_USER);
  }

  @Benchmark
  public User getUser() {
    return users.getUser(UserFixtures.GET_USER);
  }

  @Benchmark
  public Page listUser() {
    return users.listUser(UserFixtures.LIST_USER);
  }

  @Benchmark
  public Page listUserLarge() {
    return users.listUserLarge(UserFixtures.LIST_USER);
  }

  /** One call streaming 1,000 users, received through a callback observer. */
  @Benchmark
  public int streamUsers() throws Exception {
    CountingObserver observer = new CountingObserver();
    users.streamUsers(UserFixtures.STREAM_USERS, observer);
    return observer.done.get(60, TimeUnit.SECONDS);
  }

  /** Per-thread window of non-blocking calls: each invocation waits only for a free slot. */
  @State(Scope.Thread)
  public static class Window extends CallWindow {
    public Window() {
      super(ASYNC_WINDOW);
    }

    @Setup(Level.Trial)
    public void register(TripleBenchmark benchmark) {
      benchmark.windows.add(this);
    }

    @TearDown(Level.Iteration)
    public void drainIteration() throws InterruptedException {
      drain();
    }
  }

  @Benchmark
  public void getUserAsync(Window window) throws InterruptedException {
    window.acquire();
    CompletableFuture<User> call = usersAsync.getUserAsync(UserFixtures.GET_USER);
    call.whenComplete((user, error) -> window.completed(error));
  }

  /** Counts a stream's users; {@link #done} completes with the count, or the error. */
  static final class CountingObserver implements StreamObserver<User> {
    final CompletableFuture<Integer> done = new CompletableFuture<>();
    private int count;

    @Override
    public void onNext(User value) {
      count++;
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(count);
    }
  }
}
