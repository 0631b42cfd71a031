package io.triplerpc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.TransportBuilder;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code virtualThreads()} on both builders: refused at once, saying why, on Java 17 (where the normal
 * build runs); on Java 21+ each task gets a virtual thread of its own. The service methods and
 * blocking calls on them are tested in a child JVM of a newer JDK ({@code VirtualThreadsTest} in
 * triple-interop-testing).
 */
class VirtualThreadsTest {

  private static final int JAVA = Runtime.version().feature();

  @Test
  void bothBuildersRefuseBeforeJava21NamingTheVersionNeeded() {
    assumeTrue(JAVA < 21, "this JVM has virtual threads: Java " + JAVA);
    for (TransportBuilder<?> builder : List.<TransportBuilder<?>>of(TripleServer.builder(), TripleClient.builder())) {
      UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class, builder::virtualThreads);
      assertEquals("Virtual threads need Java 21 or newer; this is Java " + JAVA, refused.getMessage());
    }
  }

  @Test
  void anOlderJavaIsRefusedWhateverRuns() {
    UnsupportedOperationException refused =
        assertThrows(UnsupportedOperationException.class, () -> VirtualThreads.factory("triple-service", 20));
    assertEquals("Virtual threads need Java 21 or newer; this is Java 20", refused.getMessage());
  }

  @Test
  void eachTaskRunsOnANewVirtualThreadFromJava21() throws Exception {
    assumeTrue(JAVA >= 21, "virtual threads need Java 21; this is Java " + JAVA);
    Executor executor = VirtualThreads.perTask("triple-service");
    CompletableFuture<Thread> first = new CompletableFuture<>();
    CompletableFuture<Thread> second = new CompletableFuture<>();
    executor.execute(() -> first.complete(Thread.currentThread()));
    executor.execute(() -> second.complete(Thread.currentThread()));
    Thread one = first.get(10, TimeUnit.SECONDS);
    Thread two = second.get(10, TimeUnit.SECONDS);
    assertTrue((Boolean) Thread.class.getMethod("isVirtual").invoke(one), one.toString());
    assertTrue(one != two, "a thread per task");
    assertEquals("triple-service", one.getName());
    assertTrue(one.isDaemon());
  }
}
