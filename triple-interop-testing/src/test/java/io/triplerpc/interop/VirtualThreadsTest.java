package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code virtualThreads()} on a JDK that has them (21+), in a child JVM: a front server whose service
 * methods block on a call to a downstream server (a synchronous Triple call for half of them, a future's
 * {@code get} for the others), 200 calls in flight at once from a client whose callbacks also run on virtual
 * threads. The downstream answers none of them until all 200 have reached it, so the round completes only
 * if all 200 service methods wait at once; they must do so on a few carrier threads. Then, in the same JVM
 * and recording, every other blocking shape a virtual-thread user writes ({@link BlockingShapes}: streams
 * consumed and written blockingly under flow control, unary calls over HTTP/1.1 and gRPC-Web, retries,
 * hedging, a deadline, cancels from another virtual thread). No virtual thread may pin its carrier while it
 * waits (JFR's {@code jdk.VirtualThreadPinned}, every one recorded, with its stack).
 *
 * <p>From JDK 24 a virtual thread no longer pins its carrier in {@code synchronized} (JEP 491), which would
 * hide the pinning JDK 21 to 23 still suffer. On JDK 24 and 25 the child therefore runs with the legacy
 * locking mode ({@code -XX:LockingMode=1}), under which monitors pin as on JDK 21; a control thread that
 * parks inside {@code synchronized} shows that the recording does see such pinning. The same round on the
 * default executor is the contrast: a platform thread per waiting call.
 */
class VirtualThreadsTest {

  private static final int CALLS = 200;
  private static final int CARRIERS = 2;

  @TempDir
  static Path temp;

  /** The child run on virtual threads, which the tests below read; null until the first needs it. */
  private static Map<String, String> virtualRun;

  @Test
  void blockingServiceMethodsWaitOnVirtualThreadsOnAFewCarriers() throws Exception {
    Map<String, String> result = virtualRun();
    assertEquals(CALLS + "/" + CALLS, result.get("service threads virtual"), result.toString());
    assertEquals(CALLS + "/" + CALLS, result.get("client callbacks virtual"), result.toString());
    assertEquals(CALLS + "/" + CALLS, result.get("responses"), result.toString());
    int carriers = Integer.parseInt(result.get("carriers"));
    // The scheduler's parallelism; it adds a carrier only for a virtual thread blocked while pinned
    // (or in file I/O), which the events below would also show.
    assertTrue(carriers >= 1 && carriers <= CARRIERS, "carriers of the service threads: " + result);
    int peak = Integer.parseInt(result.get("peak platform threads"));
    assertTrue(peak < CALLS / 4, "platform threads at most at once, with " + CALLS + " calls waiting: " + result);
  }

  @Test
  void everyBlockingShapeEndsAsItShouldOnVirtualThreads() throws Exception {
    Map<String, String> result = virtualRun();
    int streams = BlockingShapes.CALLERS;
    int unary = BlockingShapes.UNARY_CALLERS;
    assertAll(
        () -> assertEquals(streams + "/" + streams, result.get("server streaming"), result::toString),
        () -> assertEquals(streams + "/" + streams, result.get("client streaming"), result::toString),
        () -> assertEquals(streams + "/" + streams, result.get("bidi streaming"), result::toString),
        // 64 KiB messages are past the 32 KiB a stream holds before it is not ready: each side waited.
        () -> assertTrue(Integer.parseInt(result.get("client ready waits")) > 0, result::toString),
        () -> assertTrue(Integer.parseInt(result.get("server ready waits")) > 0, result::toString),
        () -> assertEquals(unary + "/" + unary, result.get("unary connect http/1.1"), result::toString),
        () -> assertEquals(unary + "/" + unary, result.get("unary grpc-web http/1.1"), result::toString),
        () -> assertEquals(unary + "/" + unary, result.get("unary grpc-web"), result::toString),
        () -> assertEquals(unary + "/" + unary, result.get("retry"), result::toString),
        () -> assertEquals(unary * BlockingShapes.ANSWERED_ATTEMPT + "/" + unary * BlockingShapes.ANSWERED_ATTEMPT,
            result.get("retry attempts"), result::toString),
        () -> assertEquals(unary + "/" + unary, result.get("hedging"), result::toString),
        () -> assertEquals(unary * 2 + "/" + unary * 2, result.get("hedging attempts"), result::toString),
        () -> assertEquals(streams + "/" + streams, result.get("deadline"), result::toString),
        () -> assertEquals(streams + "/" + streams, result.get("cancel by interrupt"), result::toString),
        () -> assertEquals(streams + "/" + streams, result.get("cancel future"), result::toString),
        () -> assertEquals(streams + "/" + streams, result.get("cancel server stream"), result::toString));
  }

  /** Over the whole recording: the unary round and every shape, client and server side. */
  @Test
  void noVirtualThreadPinsItsCarrierWhileItWaits() throws Exception {
    Map<String, String> result = virtualRun();
    assertEquals("0", result.get("pinned on the call path"), result.toString());
    if (monitorsPin(newJdk())) {
      assertEquals("1", result.get("pinned control"), "the recording sees a pinned park: " + result);
    }
  }

  @Test
  void theDefaultPoolHoldsAPlatformThreadPerWaitingCall() throws Exception {
    Map<String, String> result = runChild(newJdk(), "platform");
    assertEquals("0/" + CALLS, result.get("service threads virtual"), result.toString());
    assertEquals(CALLS + "/" + CALLS, result.get("responses"), result.toString());
    int peak = Integer.parseInt(result.get("peak platform threads"));
    assertTrue(peak > CALLS, "platform threads at most at once, with " + CALLS + " calls waiting: " + result);
  }

  private static synchronized Map<String, String> virtualRun() throws Exception {
    if (virtualRun == null) {
      virtualRun = runChild(newJdk(), "virtual");
    }
    return virtualRun;
  }

  private static Jdks.Jdk newJdk() {
    Optional<Jdks.Jdk> jdk = Jdks.atLeast(21);
    assumeTrue(jdk.isPresent(), "virtual threads need a JDK 21 or newer for the child JVM, and none was found in "
        + Jdks.searched());
    return jdk.get();
  }

  /** JDK 21 to 23 pin in monitors; 24 and 25 do in the legacy locking mode, which 26 no longer has. */
  private static boolean monitorsPin(Jdks.Jdk jdk) {
    return jdk.feature() <= 25;
  }

  private static Map<String, String> runChild(Jdks.Jdk jdk, String mode) throws Exception {
    List<String> options = new ArrayList<>(List.of(
        "-XX:ActiveProcessorCount=2",
        "-Djdk.virtualThreadScheduler.parallelism=" + CARRIERS,
        "-Dio.netty.leakDetection.level=paranoid"));
    if (jdk.feature() >= 24 && monitorsPin(jdk)) {
      options.add("-XX:LockingMode=1");
    }
    Path recording = temp.resolve(mode + ".jfr");
    try (JavaProcess child = JavaProcess.start(jdk.home(), options, List.of(), Child.class.getName(), mode,
        recording.toString())) {
      assertEquals(0, child.awaitExit(180), child.output());
      String output = child.output();
      assertFalse(output.contains("LEAK:"), output);
      Map<String, String> result = new ConcurrentHashMap<>();
      for (String line : output.split("\n")) {
        int colon = line.indexOf(": ");
        if (line.startsWith("= ") && colon > 0) {
          result.put(line.substring(2, colon), line.substring(colon + 2));
        }
      }
      result.putIfAbsent("output", output);
      return result;
    }
  }

  /** The downstream, as served: answers the calls of a round together, once all have come. */
  @TripleService(name = "triple.vt.Downstream")
  public interface HeldDownstream {
    CompletableFuture<String> hold(String request);
  }

  /** The downstream, as the front calls it with a synchronous call. */
  @TripleService(name = "triple.vt.Downstream")
  public interface Downstream {
    String hold(String request);
  }

  /** The downstream, as the front calls it with a future it then waits on. */
  @TripleService(name = "triple.vt.Downstream")
  public interface FutureDownstream {
    CompletableFuture<String> hold(String request);
  }

  /** The front: each call blocks on one call to the downstream, then answers once. */
  @TripleService(name = "triple.vt.Front")
  public interface Front {
    void relay(String request, StreamObserver<String> responses);
  }

  /**
   * The child JVM: the two servers and the client, one round of {@link #CALLS} calls, then the findings,
   * a line {@code = name: value} each.
   */
  static final class Child {

    private Child() {}

    public static void main(String[] args) throws Exception {
      boolean virtual = args[0].equals("virtual");
      Path file = Path.of(args[1]);
      int status = 1;
      try (Recording recording = new Recording()) {
        recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
        if (virtual) {
          // One pass unrecorded, its findings dropped: a class loaded for the first time by two threads at
          // once makes one wait for the JDK's lock of its name, pinned (JDK 21 to 25). The recorded pass
          // makes its own server, clients and connections.
          BlockingShapes.runAll(virtualThreads("shape"), new PrintStream(OutputStream.nullOutputStream()));
        }
        recording.start();
        run(virtual);
        if (virtual) {
          BlockingShapes.runAll(virtualThreads("shape"), System.out);
          pinOnPurpose();
        }
        recording.stop();
        recording.dump(file);
        if (virtual) {
          reportPinning(file);
        }
        status = 0;
      } catch (Exception | AssertionError e) {
        e.printStackTrace(System.out);
      }
      System.out.flush();
      System.exit(status);
    }

    private static void run(boolean virtual) throws Exception {
      Held held = new Held();
      Set<String> carriers = ConcurrentHashMap.newKeySet();
      AtomicInteger virtualServices = new AtomicInteger();
      AtomicInteger virtualCallbacks = new AtomicInteger();
      TripleServer downstream = TripleServer.builder().host("127.0.0.1").port(0).directExecutor()
          .addService(HeldDownstream.class, held).build().start();
      TripleClient toDownstream = virtual
          ? TripleClient.builder().address("127.0.0.1", downstream.port()).virtualThreads().build()
          : TripleClient.builder().address("127.0.0.1", downstream.port()).build();
      Downstream blocking = toDownstream.proxy(Downstream.class);
      FutureDownstream futures = toDownstream.proxy(FutureDownstream.class);
      Front front = (request, responses) -> {
        Thread self = Thread.currentThread();
        if (isVirtual(self)) {
          virtualServices.incrementAndGet();
          carriers.add(carrier(self));
        }
        try {
          String answer = request.startsWith("f") ? futures.hold(request).get(30, TimeUnit.SECONDS)
              : blocking.hold(request);
          if (isVirtual(self)) {
            carriers.add(carrier(self));
          }
          responses.onNext(answer);
          responses.onCompleted();
        } catch (Exception e) {
          responses.onError(e);
        }
      };
      TripleServer.Builder frontBuilder = TripleServer.builder().host("127.0.0.1").port(0);
      TripleServer frontServer = (virtual ? frontBuilder.virtualThreads() : frontBuilder)
          .addService(Front.class, front).build().start();
      TripleClient.Builder clientBuilder = TripleClient.builder().address("127.0.0.1", frontServer.port());
      try (TripleClient client = (virtual ? clientBuilder.virtualThreads() : clientBuilder).build()) {
        Front proxy = client.proxy(Front.class);
        // One call first, alone: connections open and classes load before the round.
        held.expect(1);
        round(proxy, 1, new AtomicInteger(), new AtomicInteger());
        carriers.clear();
        virtualServices.set(0);
        AtomicInteger responses = new AtomicInteger();
        held.expect(CALLS);
        round(proxy, CALLS, responses, virtualCallbacks);
        System.out.println("= service threads virtual: " + virtualServices.get() + "/" + CALLS);
        System.out.println("= client callbacks virtual: " + virtualCallbacks.get() + "/" + CALLS);
        System.out.println("= responses: " + responses.get() + "/" + CALLS);
        System.out.println("= carriers: " + carriers.size());
        System.out.println("= carrier names: " + carriers);
        System.out.println("= peak platform threads: " + ManagementFactory.getThreadMXBean().getPeakThreadCount());
      } finally {
        frontServer.shutdownNow();
        toDownstream.close();
        downstream.shutdownNow();
        frontServer.awaitTermination(Duration.ofSeconds(10));
        downstream.awaitTermination(Duration.ofSeconds(10));
      }
    }

    /** Makes {@code calls} calls at once and waits until all have answered. */
    private static void round(Front proxy, int calls, AtomicInteger responses, AtomicInteger virtualCallbacks)
        throws InterruptedException {
      CountDownLatch done = new CountDownLatch(calls);
      for (int i = 0; i < calls; i++) {
        String request = (i % 2 == 0 ? "b" : "f") + i;
        proxy.relay(request, new StreamObserver<>() {
          @Override
          public void onNext(String value) {
            if (value.equals("held " + request)) {
              responses.incrementAndGet();
            }
            if (isVirtual(Thread.currentThread())) {
              virtualCallbacks.incrementAndGet();
            }
          }

          @Override
          public void onError(Throwable t) {
            t.printStackTrace(System.out);
            done.countDown();
          }

          @Override
          public void onCompleted() {
            done.countDown();
          }
        });
      }
      if (!done.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError((calls - done.getCount()) + " of " + calls + " calls answered in 30 s");
      }
    }

    /** A virtual thread that parks inside a monitor: pinned wherever monitors pin. */
    private static void pinOnPurpose() throws Exception {
      Object lock = new Object();
      Thread control = startVirtual("pin-control", () -> {
        synchronized (lock) {
          LockSupport.parkNanos(1_000_000L);
        }
      });
      control.join();
    }

    /** A frame of Netty's leak detector, which only the tests run (at PARANOID). */
    private static final String LEAK_DETECTOR = "io.netty.util.ResourceLeakDetector";

    /**
     * Counts the pinned parks: the control thread's, the leak detector's, and all others (each with its stack).
     */
    private static void reportPinning(Path file) throws Exception {
      int control = 0;
      List<String> others = new ArrayList<>();
      List<String> byLeakDetector = new ArrayList<>();
      for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
        if (!event.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
          continue;
        }
        if (event.getThread() != null && "pin-control".equals(event.getThread().getJavaName())) {
          control++;
          continue;
        }
        String stack = event.getStackTrace() == null ? "(no stack)" : event.getStackTrace().getFrames().stream()
            .map(Child::frame).collect(Collectors.joining("\n    "));
        String pinned = event.getThread().getJavaName() + " pinned (" + reason(event) + ") in\n    " + stack;
        // The leak detector at PARANOID, the tests' instrument, records every buffer's accesses under its own
        // lock; no production call path runs it.
        (stack.contains(LEAK_DETECTOR) ? byLeakDetector : others).add(pinned);
      }
      Files.deleteIfExists(file);
      System.out.println("= pinned control: " + control);
      System.out.println("= pinned on the call path: " + others.size());
      System.out.println("= pinned in the leak detector: " + byLeakDetector.size());
      others.forEach(System.out::println);
      byLeakDetector.forEach(System.out::println);
    }

    /** Why the JVM could not unmount the thread (JDK 24+ names it). */
    private static String reason(RecordedEvent event) {
      return event.hasField("pinnedReason") ? event.getString("pinnedReason") : "reason not recorded";
    }

    private static String frame(RecordedFrame frame) {
      return frame.getMethod().getType().getName() + "." + frame.getMethod().getName() + ":" + frame.getLineNumber();
    }

    private static boolean isVirtual(Thread thread) {
      try {
        return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
    }

    /** The carrier of a virtual thread, as its {@code toString} names it ({@code ...@ForkJoinPool-1-worker-1}). */
    private static String carrier(Thread thread) {
      String text = thread.toString();
      return text.substring(text.indexOf('@') + 1);
    }

    /** {@code Thread.ofVirtual().name(name).factory()}, by reflection: this code compiles for Java 17. */
    private static ThreadFactory virtualThreads(String name) throws Exception {
      Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
      Class<?> type = Class.forName("java.lang.Thread$Builder");
      Object named = type.getMethod("name", String.class).invoke(builder, name);
      return (ThreadFactory) type.getMethod("factory").invoke(named);
    }

    private static Thread startVirtual(String name, Runnable body) throws Exception {
      Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
      Class<?> type = Class.forName("java.lang.Thread$Builder");
      Object named = type.getMethod("name", String.class).invoke(builder, name);
      return (Thread) type.getMethod("start", Runnable.class).invoke(named, body);
    }
  }

  /** The downstream's service: holds each call until the round's last has come, then answers them all. */
  static final class Held implements HeldDownstream {

    private final List<CompletableFuture<String>> waiting = new ArrayList<>();
    private final List<String> requests = new ArrayList<>();
    private int expected;

    void expect(int calls) {
      synchronized (this) {
        expected = calls;
      }
    }

    @Override
    public CompletableFuture<String> hold(String request) {
      CompletableFuture<String> answer = new CompletableFuture<>();
      List<CompletableFuture<String>> release = List.of();
      List<String> released = List.of();
      // On the event loop (a direct executor): never blocks.
      synchronized (this) {
        waiting.add(answer);
        requests.add(request);
        if (waiting.size() == expected) {
          release = new ArrayList<>(waiting);
          released = new ArrayList<>(requests);
          waiting.clear();
          requests.clear();
        }
      }
      for (int i = 0; i < release.size(); i++) {
        release.get(i).complete("held " + released.get(i));
      }
      return answer;
    }
  }
}
