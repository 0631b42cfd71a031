package io.triplerpc.interop.soak;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One soak run: starts {@link SoakServer} in a JVM of its own, loads it with a {@link Workload}, takes
 * a sample of both every {@code sampleInterval}, and stops after {@code duration}.
 */
final class Soak {

  /** What to run. {@code serverJvmOptions} go to the server's JVM (a heap limit, the leak detector's level). */
  record Config(Duration duration, Duration sampleInterval, Duration warmup, double rate, Duration reconnectEvery,
      int largeSize, List<String> serverJvmOptions, Path out) {}

  /** One sample: the server's resources and the load's figures over the interval before it. */
  record Sample(double seconds, Map<String, Long> server, Workload.Snapshot load) {}

  /** A finished run: its samples, and the leak reports and server log lines with {@code LEAK:}. */
  record Run(Config config, String allocator, Workload.Snapshot priming, List<Sample> samples, long serverLeaks,
      long leakLines, List<String> unexpectedExamples, int reconnects) {}

  private static final Duration SAMPLE_TIMEOUT = Duration.ofMinutes(2);

  private Soak() {}

  static Run run(Config config) throws IOException, InterruptedException {
    Files.createDirectories(config.out());
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(config.serverJvmOptions());
    command.add("-cp");
    // Surefire may start tests from a manifest-only jar; it names the real class path here.
    command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    command.add(SoakServer.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    ServerOutput output = new ServerOutput(process, config.out().resolve("server.log"));
    try {
      String[] hello = output.awaitHello();
      int port = Integer.parseInt(hello[0]);
      Writer toServer = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
      List<Sample> samples = new CopyOnWriteArrayList<>();
      List<String> examples;
      int reconnects;
      Workload.Snapshot priming;
      try (Workload load = new Workload("127.0.0.1", port, config.rate(), config.largeSize())) {
        try {
          load.prime().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
          // Calls still in flight end during the run, and count there.
        }
        priming = load.snapshot();
        long start = System.nanoTime();
        load.start(config.reconnectEvery());
        long interval = config.sampleInterval().toNanos();
        int count = (int) (config.duration().toNanos() / interval);
        // Samples at fixed times on a timer of their own; this thread waits for the last one.
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        CompletableFuture<Void> sampled = new CompletableFuture<>();
        sampler.scheduleAtFixedRate(() -> {
          try {
            Workload.Snapshot snapshot = load.snapshot();
            toServer.write("sample\n");
            toServer.flush();
            Map<String, Long> server = output.awaitSample();
            samples.add(new Sample((System.nanoTime() - start) / 1e9, server, snapshot));
            if (samples.size() == count) {
              sampled.complete(null);
            }
          } catch (IOException | InterruptedException | RuntimeException e) {
            sampled.completeExceptionally(e);
          }
          if (sampled.isDone()) {
            throw new CancellationException("done");
          }
        }, interval, interval, TimeUnit.NANOSECONDS);
        try {
          sampled.get(config.duration().plus(SAMPLE_TIMEOUT).toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
          throw new IOException("Sampling failed: " + e, e);
        } finally {
          sampler.shutdownNow();
        }
        try {
          load.stop().get(20, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
          // Calls still in flight are counted as unexpected below.
        }
        // Calls that end after the last sample still count (an error among them must not go unseen).
        Workload.Snapshot tail = load.snapshot();
        if (!tail.unexpected().isEmpty() || tail.inFlight() > 0) {
          Map<String, Long> unexpected = new HashMap<>(tail.unexpected());
          if (tail.inFlight() > 0) {
            unexpected.put("STILL_IN_FLIGHT", (long) tail.inFlight());
          }
          Sample last = samples.remove(samples.size() - 1);
          Map<String, Long> merged = new HashMap<>(last.load().unexpected());
          unexpected.forEach((k, v) -> merged.merge(k, v, Long::sum));
          samples.add(new Sample(last.seconds(), last.server(), new Workload.Snapshot(last.load().completed(),
              last.load().latencyMicros(), last.load().asked(), merged, last.load().inFlight())));
        }
        examples = load.unexpectedExamples();
        reconnects = load.reconnects();
      }
      // A last sample after every client closed: the leak reports of everything the run left behind.
      toServer.write("sample\n");
      toServer.flush();
      long leaks = output.awaitSample().get("leaks");
      toServer.close();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      output.finish();
      return new Run(config, hello[1], priming, samples, leaks, output.leakLines.get(), examples, reconnects);
    } finally {
      process.destroyForcibly();
    }
  }

  /** Reads the server's output: its hello and samples to the caller, every line to the log. */
  private static final class ServerOutput {
    private final CompletableFuture<String[]> hello = new CompletableFuture<>();
    private final BlockingQueue<Map<String, Long>> samples = new LinkedBlockingQueue<>();
    private final AtomicLong leakLines = new AtomicLong();
    private final Thread reader;

    ServerOutput(Process process, Path log) throws IOException {
      Writer writer = Files.newBufferedWriter(log);
      reader = new Thread(() -> read(process, writer), "soak-server-output");
      reader.setDaemon(true);
      reader.start();
    }

    private void read(Process process, Writer log) {
      try (log; BufferedReader in = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          log.write(line);
          log.write('\n');
          if (line.contains("LEAK:")) {
            leakLines.incrementAndGet();
          }
          if (line.startsWith("soak-server ")) {
            Map<String, String> fields = fields(line);
            hello.complete(new String[] {fields.get("port"), fields.get("allocator")});
          } else if (line.startsWith("soak-sample ")) {
            Map<String, Long> sample = new HashMap<>();
            fields(line).forEach((k, v) -> sample.put(k, Long.parseLong(v)));
            samples.add(sample);
          }
          log.flush();
        }
      } catch (IOException e) {
        hello.completeExceptionally(e);
      } finally {
        hello.completeExceptionally(new IOException("The soak server ended before it listened; see server.log"));
      }
    }

    String[] awaitHello() throws IOException, InterruptedException {
      try {
        return hello.get(60, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw new IOException("The soak server did not start: " + e.getMessage(), e);
      }
    }

    Map<String, Long> awaitSample() throws IOException, InterruptedException {
      Map<String, Long> sample = samples.poll(SAMPLE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      if (sample == null) {
        throw new IOException("The soak server sent no sample within " + SAMPLE_TIMEOUT + "; see server.log");
      }
      return sample;
    }

    void finish() throws InterruptedException {
      reader.join(TimeUnit.SECONDS.toMillis(30));
    }

    private static Map<String, String> fields(String line) {
      Map<String, String> fields = new HashMap<>();
      for (String part : line.split(" ")) {
        int eq = part.indexOf('=');
        if (eq > 0) {
          fields.put(part.substring(0, eq), part.substring(eq + 1));
        }
      }
      return fields;
    }
  }
}
