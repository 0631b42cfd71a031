package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.TestService;
import io.grpc.testing.integration.TestServiceGrpc;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.DnsNamedServers;
import io.triplerpc.testing.TestDnsServer;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grpc-java and Triple resolving the same {@code dns:///} name at the same DNS server: a real one over
 * UDP on loopback ({@link TestDnsServer}) answering 127.0.0.1, 127.0.0.2 and 127.0.0.3 for the name,
 * with a Triple server on each address, one port, each answering {@code UnaryCall} with its address
 * as {@code server_id}. Both clients, round robin, spread their calls over the three.
 *
 * <p>grpc-java's {@code dns:///} resolver resolves A and AAAA records with
 * {@code InetAddress.getAllByName} and ignores a target's DNS-server authority, so its client runs in
 * a child JVM on a JDK 18 or newer whose name resolver (the {@code InetAddressResolverProvider} SPI of
 * JEP 418) asks the test's DNS server: {@code resolver/TestDnsResolverProvider.java} among the test
 * resources, compiled by that JDK when the test runs. Without such a JDK installed beside the one
 * running the build ({@link Jdks}) that test is skipped; Triple's half runs on its own as well.
 */
class GrpcJavaDnsTest {

  private static final String NAME = "users.test";
  private static final List<String> ADDRESSES = List.of("127.0.0.1", "127.0.0.2", "127.0.0.3");
  private static final Map<String, Integer> TEN_EACH = Map.of("127.0.0.1", 10, "127.0.0.2", 10, "127.0.0.3", 10);

  private DnsNamedServers<TripleServer> named;
  private TestDnsServer dns;
  private int port;

  @TempDir
  Path temp;

  @BeforeEach
  void start() throws Exception {
    named = DnsNamedServers.start(NAME, ADDRESSES,
        (address, onePort) -> TripleServer.builder().host(address).port(onePort)
            .addService(TestService.class, answeringAs(address)).build().start(),
        TripleServer::port, server -> {
          server.shutdownNow();
          server.awaitTermination(Duration.ofSeconds(10));
        });
    dns = named.dns();
    port = named.port();
  }

  @AfterEach
  void stop() throws Exception {
    named.close();
  }

  /** The interop TestService, whose UnaryCall fills server_id, when asked, with the server's address. */
  private static TestService answeringAs(String address) {
    TestService interop = new TestServiceImpl();
    // A proxy class implements both unaryCall and unaryCallAsync; the server calls the latter.
    return (TestService) Proxy.newProxyInstance(TestService.class.getClassLoader(), new Class<?>[] {TestService.class},
        (proxy, method, args) -> {
          Object result = method.invoke(interop, args);
          if (!method.getName().startsWith("unaryCall") || !((SimpleRequest) args[0]).getFillServerId()) {
            return result;
          }
          return result instanceof CompletableFuture<?> future
              ? future.thenApply(response -> ((SimpleResponse) response).toBuilder().setServerId(address).build())
              : ((SimpleResponse) result).toBuilder().setServerId(address).build();
        });
  }

  /** The Triple client's calls, by the server that answered each. */
  private Map<String, Integer> tripleCalls(int calls) {
    Map<String, Integer> answered = new TreeMap<>();
    try (TripleClient client = TripleClient.builder()
        .address("dns://127.0.0.1:" + dns.address().getPort() + "/" + NAME + ":" + port).build()) {
      TestService service = client.proxy(TestService.class);
      for (int i = 0; i < calls; i++) {
        answered.merge(service.unaryCall(SimpleRequest.newBuilder().setFillServerId(true).build()).getServerId(), 1,
            Integer::sum);
      }
    }
    return answered;
  }

  @Test
  void tripleSpreadsItsCallsOverTheNamesAddresses() {
    assertEquals(TEN_EACH, tripleCalls(30));
    assertTrue(dns.queries() > 0, "the Triple client asked the test DNS server");
  }

  @Test
  void grpcJavaPointedAtTheSameDnsServerSpreadsOverTheSameAddresses() throws Exception {
    Optional<Jdks.Jdk> jdk = Jdks.atLeast(18);
    assumeTrue(jdk.isPresent(), "grpc-java resolves dns:/// names through InetAddress, so pointing it at the test"
        + " DNS server takes a JDK 18+ name resolver (JEP 418) in its JVM, and no JDK 18 or newer was found in "
        + Jdks.searched());
    Path provider = TestResolverProvider.compile(jdk.get(), temp);

    int before = dns.queries();
    Map<String, Integer> grpcJava = new TreeMap<>();
    String output;
    try (JavaProcess client = JavaProcess.start(jdk.get().home(),
        Stream.concat(TestResolverProvider.options("127.0.0.1:" + dns.address().getPort(), "test").stream(),
            // A and AAAA records only, through InetAddress: no SRV (grpclb) or TXT lookups at the system's servers.
            Stream.of("-Dio.grpc.internal.DnsNameResolverProvider.enable_jndi=false")).toList(),
        List.of(provider), GrpcJavaClient.class.getName(), "dns:///" + NAME + ":" + port, "3", "30")) {
      int exit = client.awaitExit(60);
      output = client.output();
      assertEquals(0, exit, "grpc-java's client failed (on JDK " + jdk.get().feature() + "):\n" + output);
    }
    for (String line : output.split("\n")) {
      if (line.startsWith("answered ")) {
        grpcJava.merge(line.substring("answered ".length()).trim(), 1, Integer::sum);
      }
    }
    assertTrue(dns.queries() > before, "grpc-java's JVM asked the test DNS server:\n" + output);
    assertTrue(output.contains("test-dns-resolver: " + NAME + " from"), output);
    assertEquals(TEN_EACH, grpcJava, "grpc-java's calls, once connected to every address:\n" + output);

    Map<String, Integer> triple = tripleCalls(30);
    assertEquals(TEN_EACH, triple);
    assertEquals(triple.keySet(), grpcJava.keySet(), "both clients reach the same three addresses");
  }

  /**
   * grpc-java's client, in the child JVM: {@code target} round robin, calls until it has been answered
   * by {@code servers} servers (grpc-java's round robin picks only among connected addresses, and
   * connects to them all at once), then {@code calls} more, printing {@code answered <server_id>} for
   * each of those.
   */
  static final class GrpcJavaClient {

    private GrpcJavaClient() {}

    public static void main(String[] args) throws Exception {
      String target = args[0];
      int servers = Integer.parseInt(args[1]);
      int calls = Integer.parseInt(args[2]);
      ManagedChannel channel = ManagedChannelBuilder.forTarget(target)
          .defaultLoadBalancingPolicy("round_robin").usePlaintext().build();
      int status = 1;
      try {
        TestServiceGrpc.TestServiceBlockingStub stub = TestServiceGrpc.newBlockingStub(channel);
        SimpleRequest request = SimpleRequest.newBuilder().setFillServerId(true).build();
        Set<String> seen = new HashSet<>();
        int warmUp = 0;
        while (seen.size() < servers && warmUp < 1_000) {
          seen.add(stub.withDeadlineAfter(10, TimeUnit.SECONDS).unaryCall(request).getServerId());
          warmUp++;
        }
        System.out.println("warm-up: " + warmUp + " calls reached " + seen);
        for (int i = 0; i < calls; i++) {
          System.out.println("answered " + stub.withDeadlineAfter(10, TimeUnit.SECONDS).unaryCall(request).getServerId());
        }
        status = 0;
      } catch (RuntimeException e) {
        e.printStackTrace();
      } finally {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        System.out.flush();
      }
      System.exit(status);
    }
  }
}
