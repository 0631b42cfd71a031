package io.triplerpc.interop;

import io.triplerpc.testing.Signal;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A Java program from the test class path run in its own JVM, with its output collected. */
final class JavaProcess implements AutoCloseable {

  private final Process process;
  private final StringBuffer output = new StringBuffer();
  private final CompletableFuture<Void> outputDone = new CompletableFuture<>();
  /** Fires on each line of output, and when the output ends. */
  private final Signal lineRead = new Signal();

  private JavaProcess(Process process) {
    this.process = process;
    Thread reader = new Thread(this::readOutput, "output-of-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code mainClass} with {@code args} on the test class path. */
  static JavaProcess start(String mainClass, String... args) throws IOException {
    return start(Path.of(System.getProperty("java.home")), List.of(), List.of(), mainClass, args);
  }

  /**
   * Starts {@code mainClass} with {@code args} on the JDK or JRE at {@code javaHome}, with the JVM
   * options {@code options}, on {@code before} (class path entries ahead of the test's) and the test
   * class path.
   */
  static JavaProcess start(Path javaHome, List<String> options, List<Path> before, String mainClass, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(javaHome.resolve("bin").resolve("java").toString());
    command.add("-Xss1m");
    command.addAll(options);
    command.add("-cp");
    List<String> classPath = new ArrayList<>();
    before.forEach(entry -> classPath.add(entry.toString()));
    classPath.add(testClassPath());
    command.add(String.join(File.pathSeparator, classPath));
    command.add(mainClass);
    command.addAll(List.of(args));
    return new JavaProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
  }

  /** The test's class path. */
  static String testClassPath() {
    // Surefire may start tests from a manifest-only jar; it names the real class path here.
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  private void readOutput() {
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        output.append(line).append('\n');
        lineRead.fire();
      }
    } catch (IOException e) {
      output.append("[output read failed: ").append(e).append("]\n");
    } finally {
      outputDone.complete(null);
      lineRead.fire();
    }
  }

  /**
   * Waits until {@code port} on the loopback address accepts a connection; fails at once, with the
   * output, if the process ends first.
   */
  void awaitListening(int port, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
        return;
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("nothing listens on port " + port + " after " + seconds + " s; output:\n" + output);
        }
      }
      // Between attempts, wait on the process itself, so that its death ends the wait.
      try {
        process.onExit().get(100, TimeUnit.MILLISECONDS);
        outputDone.get(10, TimeUnit.SECONDS);
        throw new AssertionError("process exited with " + process.exitValue() + " before listening; output:\n" + output);
      } catch (TimeoutException stillRunning) {
        // Try again.
      }
    }
  }

  /** Writes {@code line} to the process's standard input. */
  void send(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /**
   * Waits until a line of the output starts with {@code prefix}, and returns the first such line.
   *
   * @throws AssertionError with the output if none came in {@code seconds}, or the output ended first
   */
  String awaitLine(String prefix, long seconds) {
    lineRead.await(() -> line(prefix) != null || outputDone.isDone(), Duration.ofSeconds(seconds),
        "a line starting with '" + prefix + "' was written; output:\n" + output);
    String line = line(prefix);
    if (line == null) {
      throw new AssertionError("the process's output ended without a line starting with '" + prefix + "':\n" + output);
    }
    return line;
  }

  private String line(String prefix) {
    for (String line : output.toString().split("\n")) {
      if (line.startsWith(prefix)) {
        return line;
      }
    }
    return null;
  }

  /** Waits for the process to exit and returns its exit code. */
  int awaitExit(long seconds) throws Exception {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("process did not exit within " + seconds + " s; output:\n" + output);
    }
    outputDone.get(10, TimeUnit.SECONDS);
    return process.exitValue();
  }

  String output() {
    return output.toString();
  }

  /** The process's exit, with its output read to the end; completes once, on another thread. */
  CompletableFuture<Integer> onExit() {
    return process.onExit().thenCombine(outputDone, (exited, read) -> exited.exitValue());
  }

  /** Kills the process at once (SIGKILL on Linux): no shutdown hook runs. Never blocks. */
  void kill() {
    // Through its handle: Process.destroy* would also close the pipes and lose the output not yet read.
    process.toHandle().destroyForcibly();
  }

  /** Asks the process to end (SIGTERM on Linux): its shutdown hooks run, and what they write is read. Never blocks. */
  void terminate() {
    process.toHandle().destroy();
  }

  /** Ends the process: politely first (its shutdown hooks run), then by force. */
  @Override
  public void close() {
    terminate();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
