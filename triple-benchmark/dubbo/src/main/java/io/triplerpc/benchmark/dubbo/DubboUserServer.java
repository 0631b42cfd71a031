package io.triplerpc.benchmark.dubbo;

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
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * Dubbo's server of the benchmark, run in a JVM of its own: the service exported over {@code tri} with
 * the bootstrap API, no registry, QoS off, Dubbo's default thread model. {@code --port=N} (0: a free
 * port, picked here because the harness needs the real one and Dubbo would not report it); prints
 * {@code LISTENING <port>} once the port accepts connections, then runs until killed.
 */
public final class DubboUserServer implements DubboUserService {

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

  public static void main(String[] args) throws Exception {
    int port = 0;
    for (String arg : args) {
      if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      }
    }
    if (port == 0) {
      try (ServerSocket probe = new ServerSocket(0)) {
        port = probe.getLocalPort();
      }
    }
    ApplicationConfig application = new ApplicationConfig("triple-benchmark-dubbo-server");
    application.setQosEnable(false);
    ServiceConfig<DubboUserService> service = new ServiceConfig<>();
    service.setInterface(DubboUserService.class);
    service.setRef(new DubboUserServer());
    // No host: Dubbo's client turns 127.0.0.1 into this machine's address, so the server listens on
    // every interface (as Dubbo does anyway); the traffic stays on this machine.
    DubboBootstrap bootstrap = DubboBootstrap.getInstance()
        .application(application)
        .registry(new RegistryConfig(RegistryConfig.NO_AVAILABLE))
        .protocol(new ProtocolConfig("tri", port))
        .service(service)
        .start();
    Runtime.getRuntime().addShutdownHook(new Thread(bootstrap::stop));
    waitUntilAccepting(port);
    System.out.println("LISTENING " + port);
    new CountDownLatch(1).await();
  }

  private static void waitUntilAccepting(int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return;
      } catch (IOException e) {
        TimeUnit.MILLISECONDS.sleep(50);
      }
    }
    throw new IllegalStateException("Dubbo did not open port " + port);
  }
}
