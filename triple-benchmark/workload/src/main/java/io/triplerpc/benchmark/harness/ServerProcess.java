package io.triplerpc.benchmark.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A contender's server in a JVM of its own, on a free loopback port, started and stopped by the client. */
public final class ServerProcess implements AutoCloseable {

  private final Process process;
  private final int port;
  /** CPU ticks read just before the process was stopped, or -1 while it runs. */
  private volatile long finalCpuTicks = -1;

  private ServerProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  private static volatile ServerProcess current;

  /** Triple's system property that picks the I/O of every client and server of a JVM (io_uring, epoll, nio). */
  static final String TRANSPORT_PROPERTY = "io.triplerpc.transport";

  /** The network namespace to start the server in (scripts/bench-loss.sh); this JVM's own when not set. */
  public static final String NETNS_PROPERTY = "bench.server.netns";

  /** The address the client reaches the server at (scripts/bench-loss.sh); 127.0.0.1 when not set. */
  public static final String ADDRESS_PROPERTY = "bench.server.address";

  /** {@link #ADDRESS_PROPERTY}'s value, or 127.0.0.1. */
  public static String serverAddress() {
    return System.getProperty(ADDRESS_PROPERTY, "127.0.0.1");
  }

  /**
   * Starts {@code mainClass} with this JVM's class path and waits for its {@code LISTENING <port>} line.
   * {@code jvmArgs} go before the class name (system properties for an ablation, say), followed by this
   * JVM's {@code -Dio.triplerpc.transport} unless {@code jvmArgs} set it, and by those in the system
   * property {@code bench.server.jvmArgs} (space-separated).
   */
  public static ServerProcess start(String mainClass, String... jvmArgs) throws Exception {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>();
    String namespace = System.getProperty(NETNS_PROPERTY, "").trim();
    if (!namespace.isEmpty()) {
      // Set by scripts/bench-loss.sh: the server in the network namespace on the far side of its lossy link.
      command.addAll(List.of("ip", "netns", "exec", namespace));
    }
    command.addAll(List.of(java, "-Xms512m", "-Xmx512m"));
    command.addAll(List.of(jvmArgs));
    String transport = System.getProperty(TRANSPORT_PROPERTY);
    String setTransport = "-D" + TRANSPORT_PROPERTY + "=";
    if (transport != null && Arrays.stream(jvmArgs).noneMatch(arg -> arg.startsWith(setTransport))) {
      // The server on the transport the client runs on (-jvmArgsAppend -Dio.triplerpc.transport=io_uring):
      // a row of io_uring against epoll measures both JVMs on it.
      command.add(setTransport + transport);
    }
    String extra = System.getProperty("bench.server.jvmArgs", "").trim();
    if (!extra.isEmpty()) {
      // Set by scripts/bench.sh, to run the server under a profiler, for example.
      command.addAll(List.of(extra.split("\\s+")));
    }
    command.addAll(List.of("-cp", classPath, mainClass, "--port=0"));
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .start();
    CompletableFuture<Integer> port = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          if (line.startsWith("LISTENING ")) {
            port.complete(Integer.parseInt(line.substring("LISTENING ".length()).trim()));
          } else {
            // The server's own complaints explain a failed call on this side.
            System.err.println("[server] " + line);
          }
        }
      } catch (IOException e) {
        port.completeExceptionally(e);
      }
      port.completeExceptionally(new IllegalStateException("server exited before listening"));
    }, "server-output");
    reader.setDaemon(true);
    reader.start();
    try {
      ServerProcess server = new ServerProcess(process, port.get(60, TimeUnit.SECONDS));
      current = server;
      return server;
    } catch (Exception e) {
      process.destroyForcibly();
      throw e;
    }
  }

  /** The server this JVM started last and has not closed, or null: profilers read its CPU time. */
  public static ServerProcess current() {
    return current;
  }

  public int port() {
    return port;
  }

  /** The server's process id, for reading its CPU time from /proc. */
  public long pid() {
    return process.pid();
  }

  /** utime + stime of the server so far, in clock ticks (the last reading once closed), or -1. */
  public long cpuTicks() {
    long last = finalCpuTicks;
    return last >= 0 ? last : ServerCpuProfiler.cpuTicks(process.pid());
  }

  @Override
  public void close() throws InterruptedException {
    finalCpuTicks = ServerCpuProfiler.cpuTicks(process.pid());
    if (current == this) {
      current = null;
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
