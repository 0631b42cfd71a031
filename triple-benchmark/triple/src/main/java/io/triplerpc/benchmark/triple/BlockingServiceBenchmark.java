package io.triplerpc.benchmark.triple;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.benchmark.harness.CallWindow;
import io.triplerpc.benchmark.harness.ServerProcess;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * A service that blocks: each call to the front server makes a synchronous Triple call to a downstream
 * server in the same JVM, which answers after {@value #DOWNSTREAM_MILLIS} ms (a timer, holding no
 * thread), with {@value #IN_FLIGHT} calls in flight ({@value #THREADS} JMH threads of
 * {@value #WINDOW} non-blocking calls each). The front runs its service methods on the default pool
 * ({@code pool}: a platform thread per blocked call), on virtual threads ({@code virtual}, Java 21+) or
 * on its event loops ({@code direct}: which a blocking service stalls). Throughput is JMH's; each call's
 * latency, start to answer, goes to a histogram whose p50, p99 and maximum over the measured iterations
 * the trial prints ({@code LATENCY ...}), and the server JVM its peak of platform threads every 5 s
 * ({@code THREADS ...}). Not part of scripts/bench.sh's table; run it alone, on a JDK
 * with virtual threads: {@code java -jar triple-benchmark/triple/target/triple-benchmarks.jar
 * BlockingServiceBenchmark -f 1}.
 */
@State(Scope.Benchmark)
@Threads(BlockingServiceBenchmark.THREADS)
public class BlockingServiceBenchmark {

  static final int THREADS = 4;
  static final int WINDOW = 250;
  static final int IN_FLIGHT = THREADS * WINDOW;
  static final int DOWNSTREAM_MILLIS = 5;

  /** The front server's executor: {@code pool} (the default), {@code virtual} or {@code direct}. */
  @Param({"pool", "virtual", "direct"})
  public String executor;

  private final CallWindow.Group windows = new CallWindow.Group();
  /** Latencies of calls that completed since the last iteration began. */
  private final Recorder latencies = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
  /** Latencies of the measured iterations. */
  private final Histogram measured = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);

  private ServerProcess server;
  private TripleClient client;
  private Front front;

  /** What the client calls: one blocking service method. */
  @TripleService(name = "triple.benchmark.Front")
  public interface Front {
    CompletableFuture<String> get(String key);
  }

  /** The front's service: a synchronous call to the downstream, so the method blocks. */
  @TripleService(name = "triple.benchmark.Front")
  public interface BlockingFront {
    String get(String key);
  }

  /** The downstream, as the front calls it. */
  @TripleService(name = "triple.benchmark.Downstream")
  public interface Downstream {
    String lookup(String key);
  }

  /** The downstream, as served: answers later, from a timer. */
  @TripleService(name = "triple.benchmark.Downstream")
  public interface DelayedDownstream {
    CompletableFuture<String> lookup(String key);
  }

  @Setup(Level.Trial)
  public void start() throws Exception {
    server = ServerProcess.start(Server.class.getName(), "-Dtriple.bench.executor=" + executor);
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    front = client.proxy(Front.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60)));
    String answer = front.get("check").get(60, TimeUnit.SECONDS);
    if (!answer.equals("value of check")) {
      throw new IllegalStateException("Unexpected answer: " + answer);
    }
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    latencies.reset();
  }

  /**
   * The windows stay full from one iteration to the next: drained here, each iteration would start
   * with {@value #IN_FLIGHT} calls that cost no wait, worth a few hundred calls a second in a 5 s
   * iteration of a service this slow.
   */
  @TearDown(Level.Iteration)
  public void endIteration(IterationParams iteration) {
    Histogram interval = latencies.getIntervalHistogram();
    if (iteration.getType() == IterationType.MEASUREMENT) {
      measured.add(interval);
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    try {
      // Every call answered, or the trial fails (and the smoke test with it).
      windows.drain();
      System.out.printf("LATENCY executor=%s calls=%d p50=%.2fms p99=%.2fms max=%.2fms%n", executor,
          measured.getTotalCount(), measured.getValueAtPercentile(50) / 1e6, measured.getValueAtPercentile(99) / 1e6,
          measured.getMaxValue() / 1e6);
    } finally {
      client.close();
      server.close();
    }
  }

  @Benchmark
  public void blockingCall(Window window) throws InterruptedException {
    window.acquire();
    long start = System.nanoTime();
    front.get("key").whenComplete((value, error) -> {
      latencies.recordValue(Math.min(System.nanoTime() - start, TimeUnit.SECONDS.toNanos(60)));
      window.completed(error);
    });
  }

  /** Per-thread window of calls in flight: each invocation waits only for a free slot. */
  @State(Scope.Thread)
  public static class Window extends CallWindow {
    public Window() {
      super(WINDOW);
    }

    @Setup(Level.Trial)
    public void register(BlockingServiceBenchmark benchmark) {
      benchmark.windows.add(this);
    }
  }

  /**
   * The servers, in a JVM of their own: the downstream (on its event loops, answering from a timer)
   * and the front, on the executor {@code -Dtriple.bench.executor} names. Prints {@code LISTENING <port>}.
   */
  public static final class Server {

    private Server() {}

    public static void main(String[] args) throws Exception {
      ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "downstream-timer");
        thread.setDaemon(true);
        return thread;
      });
      DelayedDownstream delayed = key -> {
        CompletableFuture<String> value = new CompletableFuture<>();
        timer.schedule(() -> value.complete("value of " + key), DOWNSTREAM_MILLIS, TimeUnit.MILLISECONDS);
        return value;
      };
      TripleServer downstream = TripleServer.builder().host("127.0.0.1").port(0).directExecutor()
          .maxConcurrentStreams(4 * IN_FLIGHT).addService(DelayedDownstream.class, delayed).build().start();
      TripleClient toDownstream = TripleClient.builder().address("127.0.0.1", downstream.port()).build();
      Downstream lookups = toDownstream.proxy(Downstream.class);
      TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(0)
          .maxConcurrentStreams(4 * IN_FLIGHT);
      String executor = System.getProperty("triple.bench.executor", "pool");
      if (executor.equals("virtual")) {
        builder.virtualThreads();
      } else if (executor.equals("direct")) {
        builder.directExecutor();
      }
      BlockingFront service = lookups::lookup;
      TripleServer front = builder.addService(BlockingFront.class, service).build().start();
      // How many platform threads the executor needed (JDK 21+ counts no virtual thread here), every
      // 5 s: the client stops this JVM with its output closed, so a last word would be lost.
      timer.scheduleAtFixedRate(() -> System.out.println("THREADS executor=" + executor + " peak="
          + ManagementFactory.getThreadMXBean().getPeakThreadCount()), 5, 5, TimeUnit.SECONDS);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        front.shutdownNow();
        downstream.shutdownNow();
      }));
      System.out.println("LISTENING " + front.port());
      front.awaitTermination();
    }
  }
}
