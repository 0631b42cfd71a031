package io.triplerpc.benchmark.grpc;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.triplerpc.benchmark.harness.CallWindow;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.ExistUserResponse;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserServiceGrpc;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The workload through grpc-java: one {@link ManagedChannel} (one connection) shared by every JMH
 * thread, blocking stub for the synchronous calls, async stub for the stream, future stub for the
 * non-blocking calls; the server in a JVM of its own. Every call is made and checked once first.
 */
@State(Scope.Benchmark)
public class GrpcBenchmark {

  /** Calls in flight per thread in getUserAsync, as in every contender. */
  static final int ASYNC_WINDOW = 64;

  /** The getUserAsync windows of this trial, idle before the client closes. */
  private final CallWindow.Group windows = new CallWindow.Group();

  private ServerProcess server;
  private ManagedChannel channel;
  private UserServiceGrpc.UserServiceBlockingStub blocking;
  private UserServiceGrpc.UserServiceStub async;
  private UserServiceGrpc.UserServiceFutureStub future;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(GrpcUserServer.class.getName());
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    blocking = UserServiceGrpc.newBlockingStub(channel);
    async = UserServiceGrpc.newStub(channel);
    future = UserServiceGrpc.newFutureStub(channel);
    verify();
  }

  void verify() throws Exception {
    Check.existUser(existUser());
    Check.createUser(createUser());
    Check.getUser(getUser());
    Check.listUser(listUser());
    Check.listUserLarge(listUserLarge());
    Check.streamUsers(streamUsers());
    Check.getUser(future.withDeadlineAfter(60, TimeUnit.SECONDS).getUser(UserFixtures.GET_USER).get(60, TimeUnit.SECONDS));
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    windows.awaitIdle();
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.close();
  }

  /** A deadline per call, as Triple's and Dubbo's 60 s timeouts. */
  private UserServiceGrpc.UserServiceBlockingStub blocking() {
    return blocking.withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  @Benchmark
  public ExistUserResponse existUser() {
    return blocking().existUser(UserFixtures.EXIST_USER);
  }

  @Benchmark
  public CreateUserResponse createUser() {
    return blocking().createUser(UserFixtures.CREATE_USER);
  }

  @Benchmark
  public User getUser() {
    return blocking().getUser(UserFixtures.GET_USER);
  }

  @Benchmark
  public Page listUser() {
    return blocking().listUser(UserFixtures.LIST_USER);
  }

  @Benchmark
  public Page listUserLarge() {
    return blocking().listUserLarge(UserFixtures.LIST_USER);
  }

  /** One call streaming 1,000 users, received through the async stub's callback observer. */
  @Benchmark
  public int streamUsers() throws Exception {
    CountingObserver observer = new CountingObserver();
    async.withDeadlineAfter(60, TimeUnit.SECONDS).streamUsers(UserFixtures.STREAM_USERS, observer);
    return observer.done.get(60, TimeUnit.SECONDS);
  }

  /** Per-thread window of non-blocking calls: each invocation waits only for a free slot. */
  @State(Scope.Thread)
  public static class Window extends CallWindow {
    public Window() {
      super(ASYNC_WINDOW);
    }

    @Setup(Level.Trial)
    public void register(GrpcBenchmark benchmark) {
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
    ListenableFuture<User> call = future.withDeadlineAfter(60, TimeUnit.SECONDS).getUser(UserFixtures.GET_USER);
    Futures.addCallback(call, new FutureCallback<>() {
      @Override
      public void onSuccess(User result) {
        window.completed(null);
      }

      @Override
      public void onFailure(Throwable t) {
        window.completed(t);
      }
    }, MoreExecutors.directExecutor());
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
