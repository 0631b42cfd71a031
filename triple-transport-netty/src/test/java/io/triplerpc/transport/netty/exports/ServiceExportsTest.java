package io.triplerpc.transport.netty.exports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One interface served in several exports (version, group), routed on {@code tri-service-version} and
 * {@code tri-service-group} with Dubbo's semantics: exact match, the default export for calls naming
 * none, UNIMPLEMENTED naming the pair for an export not served; from Triple's proxies (annotation and
 * {@link CallOptions}), raw headers and curl.
 */
class ServiceExportsTest {

  private static TripleServer server;
  private static TripleServer noDefault;
  private static TripleClient client;
  private static TripleClient noDefaultClient;
  private static final List<Metadata> seen = new ArrayList<>();

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Counter.class, new Counter.Named("plain"))
        .addService(Counter.class, new Counter.Named("v1g1"), "1.0.0", "g1")
        .addService(Counter.class, new Counter.Named("v2"), "2.0.0", "")
        .addService(Counter.class, new Counter.Named("g2"), "", "g2")
        .build().start();
    noDefault = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Counter.V1G1.class, new Counter.Named("first"))
        .addService(Counter.class, new Counter.Named("second"), "2.0.0", "")
        .build().start();
    ClientInterceptor recording = new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
        return new ForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            super.start(listener, headers);
            synchronized (seen) {
              seen.add(new Metadata().merge(headers));
            }
          }
        };
      }
    };
    client = TripleClient.builder().address("127.0.0.1", server.port()).intercept(recording).build();
    noDefaultClient = TripleClient.builder().address("127.0.0.1", noDefault.port()).build();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    client.close();
    noDefaultClient.close();
    server.shutdownNow();
    noDefault.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
    noDefault.awaitTermination(Duration.ofSeconds(10));
  }

  private static Counter proxy(String version, String group) {
    return client.proxy(Counter.class, CallOptions.DEFAULT.withServiceVersion(version).withServiceGroup(group));
  }

  @Test
  void eachExportAnswersTheCallsNamingIt() {
    assertEquals("plain:a", client.proxy(Counter.class).who("a"));
    assertEquals("v1g1:b", proxy("1.0.0", "g1").who("b"));
    assertEquals("v2:c", proxy("2.0.0", "").who("c"));
    assertEquals("g2:d", proxy("", "g2").who("d"));
    assertEquals("g2:e", proxy(null, "g2").who("e"), "a version left unset is none for an interface naming none");
  }

  @Test
  void streamingCallsAreRoutedAlike() {
    List<String> got = new ArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    proxy("1.0.0", "g1").count(3, new io.triplerpc.StreamObserver<>() {
      @Override
      public void onNext(String value) {
        got.add(value);
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        done.complete(null);
      }
    });
    done.orTimeout(10, TimeUnit.SECONDS).join();
    assertEquals(List.of("v1g1#0", "v1g1#1", "v1g1#2"), got);
  }

  @Test
  void theAnnotationNamesTheExportAndOptionsOverrideIt() {
    assertEquals("v1g1:x", client.proxy(Counter.V1G1.class).who("x"));
    assertEquals("v2:y", client.proxy(Counter.V1G1.class,
        CallOptions.DEFAULT.withServiceVersion("2.0.0").withServiceGroup("")).who("y"));
    assertEquals("plain:z", client.proxy(Counter.V1G1.class,
        CallOptions.DEFAULT.withServiceVersion("").withServiceGroup("")).who("z"));
  }

  @Test
  void theHeadersNameTheExportOnce() {
    synchronized (seen) {
      seen.clear();
    }
    proxy("1.0.0", "g1").who("h");
    Metadata headers;
    synchronized (seen) {
      headers = seen.get(seen.size() - 1);
    }
    assertEquals(List.of("1.0.0"), headers.getAll("tri-service-version"));
    assertEquals(List.of("g1"), headers.getAll("tri-service-group"));
    proxy("", "").who("h");
    synchronized (seen) {
      headers = seen.get(seen.size() - 1);
    }
    assertTrue(!headers.containsKey("tri-service-version") && !headers.containsKey("tri-service-group"),
        headers.toString());
  }

  @Test
  void anExportNotServedIsUnimplementedNamingIt() {
    StatusException e = assertThrows(StatusException.class, () -> proxy("3.0.0", "g1").who("q"));
    assertEquals(Status.Code.UNIMPLEMENTED, e.status().code());
    String message = e.status().description();
    assertTrue(message.contains("triple.test.Counter is not served with version 3.0.0, group g1"), message);
    assertTrue(message.contains("version 1.0.0, group g1") && message.contains("version 2.0.0, no group"), message);
    StatusException groupOnly = assertThrows(StatusException.class, () -> proxy("1.0.0", "").who("q"));
    assertEquals(Status.Code.UNIMPLEMENTED, groupOnly.status().code(), "the match is exact");
  }

  @Test
  void withoutAnUnnamedExportAHeaderlessCallReachesTheFirstAdded() {
    assertEquals("first:a", noDefaultClient.proxy(Counter.class).who("a"));
    assertEquals("first:b", noDefaultClient.proxy(Counter.V1G1.class).who("b"));
    assertEquals("second:c", noDefaultClient.proxy(Counter.class, CallOptions.DEFAULT.withServiceVersion("2.0.0")).who("c"));
    StatusException e = assertThrows(StatusException.class,
        () -> noDefaultClient.proxy(Counter.class, CallOptions.DEFAULT.withServiceGroup("g1")).who("d"));
    assertEquals(Status.Code.UNIMPLEMENTED, e.status().code());
  }

  @Test
  void anUnversionedServerRefusesACallNamingAVersion() {
    TripleServer only = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Counter.class, new Counter.Named("only")).build().start();
    try (TripleClient c = TripleClient.builder().address("127.0.0.1", only.port()).build()) {
      StatusException e = assertThrows(StatusException.class, () -> c.proxy(Counter.V1G1.class).who("a"));
      assertEquals(Status.Code.UNIMPLEMENTED, e.status().code());
      assertTrue(e.status().description().contains("served: no version, no group"),
          e.status().description());
      assertEquals("only:b", c.proxy(Counter.class).who("b"));
    } finally {
      only.shutdownNow();
    }
  }

  @Test
  void curlSelectsWithTheSameHeaders() throws Exception {
    assertEquals("200 \"v2:c\"", curl("-H", "tri-service-version: 2.0.0"));
    assertEquals("200 \"v1g1:c\"", curl("-H", "tri-service-version: 1.0.0", "-H", "tri-service-group: g1"));
    assertEquals("200 \"plain:c\"", curl());
    String refused = curl("-H", "tri-service-version: 9.9.9");
    assertTrue(refused.startsWith("404 {\"code\":\"unimplemented\",\"message\":\"Service triple.test.Counter is not"
        + " served with version 9.9.9, no group"), refused);
  }

  /** curl's HTTP status and body for {@code who("c")} as JSON over HTTP/1.1, with {@code headers}. */
  private static String curl(String... headers) throws Exception {
    Path out = Files.createTempFile("curl", ".out");
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "-o", out.toString(), "-w", "%{http_code}",
        "-H", "content-type: application/json", "--data-binary", "\"c\""));
    command.addAll(List.of(headers));
    command.add("http://127.0.0.1:" + server.port() + "/triple.test.Counter/who");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String status = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(20, TimeUnit.SECONDS), "curl finished");
    String body = Files.readString(out, StandardCharsets.UTF_8).trim();
    Files.delete(out);
    return status + " " + body;
  }

  @Test
  void theBuilderRefusesAnExportTwiceAndNamesThatCannotTravel() {
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> TripleServer.builder()
        .addService(Counter.class, new Counter.Named("a"), "1.0.0", "g1")
        .addService(Counter.V1G1.class, new Counter.Named("b"))
        .build().start());
    assertTrue(twice.getMessage().contains("version 1.0.0, group g1"), twice.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> TripleServer.builder().addService(Counter.class, new Counter.Named("a"), "1.0 beta", ""));
    assertThrows(IllegalArgumentException.class,
        () -> TripleServer.builder().addService(Counter.class, new Counter.Named("a"), "*", ""));
    assertThrows(IllegalArgumentException.class, () -> CallOptions.DEFAULT.withServiceGroup("a/b"));
  }
}
