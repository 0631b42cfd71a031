package io.triplerpc.benchmark.dubbo;

import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.ExistUserResponse;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.User;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ReferenceConfig;
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
 * in a JVM of its own. Each trial has a framework model of its own, destroyed at tear-down, so that
 * several trials can run in one JVM. Every call is made and checked once first.
 */
@State(Scope.Benchmark)
public class DubboBenchmark {

  /** Calls in flight per thread in getUserAsync, as in every contender. */
  static final int ASYNC_WINDOW = 64;

  private ServerProcess server;
  private FrameworkModel framework;
  private DubboUserService users;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(DubboUserServer.class.getName());
    framework = new FrameworkModel();
    ApplicationModel application = framework.newApplication();
    ApplicationConfig config = new ApplicationConfig("triple-benchmark-dubbo-client");
    config.setQosEnable(false);
    application.getApplicationConfigManager().setApplication(config);
    ReferenceConfig<DubboUserService> reference = new ReferenceConfig<>(application.newModule());
    reference.setInterface(DubboUserService.class);
    reference.setUrl("tri://127.0.0.1:" + server.port());
    reference.setTimeout(60_000);
    reference.setRetries(0);
    users = reference.get();
    verify();
  }

  void verify() throws Exception {
    Check.existUser(existUser());
    Check.createUser(createUser());
    Check.getUser(getUser());
    Check.listUser(listUser());
    Check.listUserLarge(listUserLarge());
    Check.streamUsers(streamUsers());
    Check.getUser(users.getUserAsync(UserFixtures.GET_USER).get(60, TimeUnit.SECONDS));
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    framework.destroy();
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

  /** One call streaming 1,000 users, received through Dubbo's callback observer. */
  @Benchmark
  public int streamUsers() throws Exception {
    CountingObserver observer = new CountingObserver();
    users.streamUsers(UserFixtures.STREAM_USERS, observer);
    return observer.done.get(60, TimeUnit.SECONDS);
  }

  /** Per-thread window of non-blocking calls: each invocation waits only for a free slot. */
  @State(Scope.Thread)
  public static class Window {
    final Semaphore slots = new Semaphore(ASYNC_WINDOW);

    @TearDown(Level.Iteration)
    public void drain() throws InterruptedException {
      slots.acquire(ASYNC_WINDOW);
      slots.release(ASYNC_WINDOW);
    }
  }

  @Benchmark
  public void getUserAsync(Window window) throws InterruptedException {
    window.slots.acquire();
    CompletableFuture<User> call = users.getUserAsync(UserFixtures.GET_USER);
    call.whenComplete((user, error) -> window.slots.release());
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
