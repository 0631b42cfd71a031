package io.triplerpc.benchmark.dubbo;

import io.triplerpc.benchmark.harness.CallWindow;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.ExistUserResponse;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.User;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The workload through Dubbo: one reference with a direct {@code tri://} URL (one connection) shared
 * by every JMH thread, timeout 60 s and no retries (a failure must fail, not be retried); the server
 * in a JVM of its own. Each trial builds a Dubbo framework model of its own and destroys it at
 * tear-down, instead of using Dubbo's process-wide default model, so several trials can run in one
 * JVM (as with forks(0)). Every call is made and checked once first.
 */
@State(Scope.Benchmark)
public class DubboBenchmark {

  /** Calls in flight per thread in getUserAsync, as in every contender. */
  static final int ASYNC_WINDOW = 64;

  private ServerProcess server;
  /** Kills the server should JMH skip the tear-down (it does when a benchmark fails). */
  private Thread serverKiller;
  private FrameworkModel framework;
  private DubboUserService users;
  /** The getUserAsync windows of this trial, drained before Dubbo is destroyed. */
  private final CallWindow.Group windows = new CallWindow.Group();

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(DubboUserServer.class.getName());
    long pid = server.pid();
    serverKiller = new Thread(() -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
    Runtime.getRuntime().addShutdownHook(serverKiller);
    try {
      framework = new FrameworkModel();
      users = reference(framework, server.port());
      verify();
    } catch (Exception | Error e) {
      // JMH skips the tear-down of a failed set-up: the server must not outlive it.
      stop();
      throw e;
    }
  }

  /**
   * A reference to the server in {@code framework}, which holds its connection: Dubbo shares one
   * connection per address within a framework model, so a client per connection needs a model each.
   */
  static DubboUserService reference(FrameworkModel framework, int port) {
    ApplicationModel application = framework.newApplication();
    ApplicationConfig config = new ApplicationConfig("triple-benchmark-dubbo-client");
    config.setQosEnable(false);
    application.getApplicationConfigManager().setApplication(config);
    ReferenceConfig<DubboUserService> reference = new ReferenceConfig<>(application.newModule());
    reference.setInterface(DubboUserService.class);
    reference.setUrl("tri://127.0.0.1:" + port);
    reference.setTimeout(60_000);
    reference.setRetries(0);
    // Connecting includes the HTTP/2 handshake, which Dubbo gives 3 s: too little on a busy machine
    // with a server JVM that just started.
    reference.setParameters(Map.of("connect.timeout", "60000"));
    return reference.get();
  }

  /** One call of each kind, answers checked: a broken adapter must not post a score. */
  void verify() throws Exception {
    Check.existUser(existUser());
    Check.createUser(createUser());
    Check.getUser(getUser());
    Check.listUser(listUser());
    Check.listUserLarge(listUserLarge());
    Check.streamUsers(streamUsers());
    Check.getUser(getUserAsync().get(60, TimeUnit.SECONDS));
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    try {
      windows.awaitIdle();
      if (framework != null) {
        // Destroys the reference and its connection with the rest of this trial's Dubbo.
        framework.destroy();
      }
    } finally {
      framework = null;
      server.close();
      try {
        Runtime.getRuntime().removeShutdownHook(serverKiller);
      } catch (IllegalStateException shuttingDown) {
        // The hook runs anyway; the server is already closed.
      }
    }
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

  /** One call streaming 1,000 users, received through Dubbo's callback observer. */
  @Benchmark
  public int streamUsers() throws Exception {
    CountingObserver observer = new CountingObserver();
    users.streamUsers(UserFixtures.STREAM_USERS, observer);
    return observer.done.get(60, TimeUnit.SECONDS);
  }

  /**
   * Per-thread window of non-blocking calls: each invocation waits only for a free slot. Registered
   * with the trial, whose tear-down waits for every window (Dubbo breaks its connection with a few
   * hundred calls in flight on it: keep getUserAsync at a few threads).
   */
  @State(Scope.Thread)
  public static class Window extends CallWindow {
    public Window() {
      super(ASYNC_WINDOW);
    }

    @Setup(Level.Trial)
    public void register(DubboBenchmark benchmark) {
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
    getUserAsync().whenComplete((user, error) -> window.completed(error));
  }

  /**
   * The remote getUser, not blocking: Dubbo's async call returns at once and completes the future
   * from its response callback.
   */
  CompletableFuture<User> getUserAsync() {
    return RpcContext.getServiceContext().asyncCall(() -> users.getUser(UserFixtures.GET_USER));
  }

  private static final class CountingObserver implements StreamObserver<User> {
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
