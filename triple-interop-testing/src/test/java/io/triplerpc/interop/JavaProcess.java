package io.triplerpc.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
  private final List<Runnable> lineWatchers = new ArrayList<>();
  private volatile String awaitedLine;
  private final CompletableFuture<Void> lineSeen = new CompletableFuture<>();

  private JavaProcess(Process process) {
    this.process = process;
    Thread reader = new Thread(this::readOutput, "output-of-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code mainClass} with {@code args} on the test class path. */
  static JavaProcess start(String mainClass, String... args) throws IOException {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xss1m");
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass);
    command.addAll(List.of(args));
    return new JavaProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
  }

  private void readOutput() {
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        output.append(line).append('\n');
        String awaited = awaitedLine;
        if (awaited != null && line.contains(awaited)) {
          lineSeen.complete(null);
        }
      }
    } catch (IOException e) {
      output.append("[output read failed: ").append(e).append("]\n");
    } finally {
      outputDone.complete(null);
      lineSeen.completeExceptionally(new IllegalStateException("process ended before the awaited line"));
    }
  }

  /** Waits until the process prints a line containing {@code text}. */
  void awaitLine(String text, long seconds) throws Exception {
    awaitedLine = text;
    if (output.toString().contains(text)) {
      return;
    }
    try {
      lineSeen.get(seconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("no line with '" + text + "' within " + seconds + " s; output:\n" + output, e);
    }
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

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
