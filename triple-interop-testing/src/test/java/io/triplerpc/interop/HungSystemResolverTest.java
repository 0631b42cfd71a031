package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.TestService;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestDnsServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM's own name resolver hung on one name, as behind a DNS server that stopped answering: a Triple
 * client whose every connection shares one event loop keeps calling servers by IP literal and by other
 * names, and the hung name's call completes once the DNS server answers. Unlike
 * {@code HostResolutionTest}, nothing of Triple's is replaced: the client's lookups go through
 * {@code InetAddress} to the JDK's resolver, which a JEP 418 provider (JDK 18+, see
 * {@link TestResolverProvider}) points at a {@link TestDnsServer} holding the name's queries. The client
 * runs in a child JVM with one processor, so Triple's client event loops are one thread.
 */
class HungSystemResolverTest {

  private static final String HUNG = "hung.resolver.test";
  private static final String OTHER = "other.resolver.test";

  private TestDnsServer dns;
  private TripleServer server;

  @TempDir
  Path temp;

  @BeforeEach
  void start() throws Exception {
    dns = TestDnsServer.start();
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    dns.set(HUNG, loopback).set(OTHER, loopback).hold(HUNG);
    server = TripleServer.builder().host("127.0.0.1").port(0).addService(TestService.class, new TestServiceImpl())
        .build().start();
  }

  @AfterEach
  void stop() throws Exception {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
    dns.close();
  }

  @Test
  void aLookupHungInTheJdksResolverStallsNoOtherCall() throws Exception {
    Optional<Jdks.Jdk> jdk = Jdks.atLeast(18);
    assumeTrue(jdk.isPresent(), "hanging the JVM's own resolver takes a JDK 18+ resolver provider (JEP 418) in the"
        + " client's JVM, and no JDK 18 or newer was found in " + Jdks.searched());
    Path provider = TestResolverProvider.compile(jdk.get(), temp);
    List<String> options = new ArrayList<>(TestResolverProvider.options("127.0.0.1:" + dns.address().getPort(), "test"));
    // Longer than the test: the lookup ends when the DNS server answers, not on the resolver's timeout.
    options.add("-Dtriple.test.dns.timeoutMillis=120000");
    options.add("-XX:ActiveProcessorCount=1");
    options.add("-Dio.netty.leakDetection.level=paranoid");

    try (JavaProcess client = JavaProcess.start(jdk.get().home(), options, List.of(provider), Client.class.getName(),
        String.valueOf(server.port()), HUNG, OTHER)) {
      assertEquals("processors 1", client.awaitLine("processors", 60), "one client event loop");
      client.awaitLine("hung call started", 60);
      dns.held().await(() -> dns.heldQueries() > 0, Duration.ofSeconds(60),
          "the hung name's lookup reached the DNS server; client output:\n" + client.output());

      client.send("go");
      assertEquals("hung call done: false", client.awaitLine("hung call done", 60),
          "the hung name's call waits for its lookup; output:\n" + client.output());
      String output = client.output();
      assertTrue(output.contains("literal call: OK"), output);
      assertTrue(output.contains("named call: OK"), output);
      assertTrue(output.contains("test-dns-resolver: " + OTHER + " from"),
          "the other name went through the JVM's resolver to the DNS server:\n" + output);

      dns.release(HUNG);
      client.send("released");
      assertEquals(0, client.awaitExit(60), client.output());
      output = client.output();
      assertTrue(output.contains("hung call: OK"), output);
      assertTrue(output.contains("test-dns-resolver: " + HUNG + " from"), output);
      assertFalse(output.contains("LEAK:"), output);
    }
  }

  /**
   * The client, in the child JVM: starts a call to {@code <hung name>:port}; on the line {@code go},
   * calls {@code 127.0.0.1:port} and {@code <other name>:port} and says whether the hung call is done;
   * on {@code released}, waits for the hung call. Each step is a line of output.
   */
  static final class Client {

    private Client() {}

    public static void main(String[] args) throws Exception {
      int port = Integer.parseInt(args[0]);
      String hung = args[1];
      String other = args[2];
      System.out.println("processors " + Runtime.getRuntime().availableProcessors());
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      SimpleRequest request = SimpleRequest.newBuilder().setResponseSize(8).build();
      int status = 1;
      try (TripleClient hungClient = TripleClient.builder().address(hung, port).build();
          TripleClient literalClient = TripleClient.builder().address("127.0.0.1", port).build();
          TripleClient otherClient = TripleClient.builder().address(other, port).build()) {
        CompletableFuture<SimpleResponse> hungCall = hungClient.proxy(TestService.class).unaryCallAsync(request);
        System.out.println("hung call started");
        expect(in, "go");
        System.out.println("literal call: " + size(literalClient.proxy(TestService.class).unaryCall(request)));
        System.out.println("named call: " + size(otherClient.proxy(TestService.class).unaryCall(request)));
        System.out.println("hung call done: " + hungCall.isDone());
        expect(in, "released");
        System.out.println("hung call: " + size(hungCall.get(60, TimeUnit.SECONDS)));
        status = 0;
      } catch (Exception | AssertionError e) {
        e.printStackTrace(System.out);
      }
      System.out.flush();
      System.exit(status);
    }

    private static String size(SimpleResponse response) {
      return response.getPayload().getBody().size() == 8 ? "OK" : "wrong size " + response.getPayload().getBody().size();
    }

    private static void expect(BufferedReader in, String line) throws Exception {
      String read = in.readLine();
      if (!line.equals(read)) {
        throw new AssertionError("expected '" + line + "' on standard input, read '" + read + "'");
      }
    }
  }
}
