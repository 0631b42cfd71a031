package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.benchmark.harness.ServerProcess;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.UserFixtures.Check;
import io.triplerpc.benchmark.workload.proto.User;
import io.triplerpc.benchmark.workload.proto.UserService;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import java.time.Duration;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What discovery costs per call: getUser against one server, through a client with its address
 * ({@link #directGetUser}) and through a client that found the same server in a registry
 * ({@link #discoveredGetUser}: the directory's pick, the failover wrapper and the in-flight count).
 * Not part of scripts/bench.sh's table; run it alone:
 * {@code java -jar triple-benchmark/triple/target/triple-benchmarks.jar DiscoveryOverhead -t 32 -f 1}.
 */
@State(Scope.Benchmark)
public class DiscoveryOverheadBenchmark {

  private ServerProcess server;
  private TripleClient direct;
  private TripleClient discovered;
  private InProcessRegistry registry;
  private UserService directUsers;
  private UserService discoveredUsers;

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(UserServer.class.getName());
    CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
    direct = TripleClient.builder().address("127.0.0.1", server.port()).build();
    directUsers = direct.proxy(UserService.class, options);

    registry = new InProcessRegistry();
    String service = io.triplerpc.internal.descriptor.ServiceDescriptor.of(UserService.class).serviceName();
    MetadataInfo metadata = MetadataInfo.of("user-app",
        List.of(new ServerInfo.Service(service, List.of("getUser"), "proto", "", "")));
    registry.publishMetadata(metadata).join();
    registry.map(service, "user-app").join();
    registry.register(ServiceInstance.of("user-app", "127.0.0.1", server.port(), metadata.revision())).join();
    discovered = TripleClient.builder().cluster(Discovery.using(registry).build()).build();
    discoveredUsers = discovered.proxy(UserService.class, options);

    Check.getUser(directGetUser());
    Check.getUser(discoveredGetUser());
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    direct.close();
    discovered.close();
    registry.close();
    server.close();
  }

  @Benchmark
  public User directGetUser() {
    return directUsers.getUser(UserFixtures.GET_USER);
  }

  @Benchmark
  public User discoveredGetUser() {
    return discoveredUsers.getUser(UserFixtures.GET_USER);
  }
}
