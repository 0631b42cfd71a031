package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a pod's server does when Kubernetes deletes it (docs/kubernetes.md): a server in its own JVM,
 * with the shutdown hook the docs show, holds a call; the process gets SIGTERM; the call in flight
 * finishes with OK, a new connection is refused at once, and the process exits once drained. The
 * child reports each step on its standard output, which the test reads (no timing, no polling).
 */
class SigtermDrainTest {

  @TripleService(name = "triple.test.Held")
  public interface Held {
    /** Answers after the server has held the call for two seconds. */
    CompletableFuture<String> hold(String name);
  }

  /** The server in the child JVM: serves {@link Held} on a free port with the docs' shutdown hook. */
  public static final class HeldCallServer {
    public static void main(String[] args) throws InterruptedException {
      ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "held-calls");
        t.setDaemon(true);
        return t;
      });
      TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
          .addService(Held.class, name -> {
            CompletableFuture<String> answer = new CompletableFuture<>();
            later.schedule(() -> answer.complete("released " + name), 2, TimeUnit.SECONDS);
            System.out.println("held");
            return answer;
          })
          .build().start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        server.shutdown();
        System.out.println("draining");
        try {
          if (!server.awaitTermination(Duration.ofSeconds(20))) {
            server.shutdownNow();
            System.out.println("forced");
          } else {
            System.out.println("drained");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
      System.out.println("listening " + server.port());
      server.awaitTermination();
    }
  }

  @Test
  void aCallInFlightFinishesAndNewConnectionsAreRefused() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
        HeldCallServer.class.getName())).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String started = out.readLine();
      assertTrue(started != null && started.startsWith("listening "), "the server starts: " + started);
      int port = Integer.parseInt(started.substring("listening ".length()));
      try (TripleClient client = TripleClient.builder().address("127.0.0.1", port).build()) {
        CompletableFuture<String> inFlight =
            CompletableFuture.supplyAsync(() -> client.proxy(Held.class).hold("a").join());
        assertEquals("held", out.readLine());

        process.toHandle().destroy(); // SIGTERM, as the kubelet sends (Process.destroy would close our pipes too)
        assertEquals("draining", out.readLine());
        try (TripleClient late = TripleClient.builder().address("127.0.0.1", port).build()) {
          CompletionException refused =
              assertThrows(CompletionException.class, () -> late.proxy(Held.class).hold("late").join());
          assertEquals(Status.Code.UNAVAILABLE, ((StatusException) refused.getCause()).status().code(),
              refused.getCause().toString());
        }

        assertEquals("released a", inFlight.get(10, TimeUnit.SECONDS), "the call in flight finishes");
        assertEquals("drained", out.readLine());
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), "the process exits once drained");
        assertEquals(128 + 15, process.exitValue(), "ended by SIGTERM");
      }
    } finally {
      process.destroyForcibly();
    }
  }
}
