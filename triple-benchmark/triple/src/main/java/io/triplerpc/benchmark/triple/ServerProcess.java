package io.triplerpc.benchmark.triple;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A contender's server in a JVM of its own, on a free loopback port, started and stopped by the client. */
final class ServerProcess implements AutoCloseable {

  private final Process process;
  private final int port;

  private ServerProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts {@code mainClass} with this JVM's class path and waits for its {@code LISTENING <port>} line. */
  static ServerProcess start(String mainClass) throws Exception {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(List.of(java, "-Xms512m", "-Xmx512m", "-cp", classPath, mainClass, "--port=0"))
        .redirectErrorStream(true)
        .start();
    CompletableFuture<Integer> port = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          if (line.startsWith("LISTENING ")) {
            port.complete(Integer.parseInt(line.substring("LISTENING ".length()).trim()));
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
      return new ServerProcess(process, port.get(60, TimeUnit.SECONDS));
    } catch (Exception e) {
      process.destroyForcibly();
      throw e;
    }
  }

  int port() {
    return port;
  }

  /** The server's process id, for reading its CPU time from /proc. */
  long pid() {
    return process.pid();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
