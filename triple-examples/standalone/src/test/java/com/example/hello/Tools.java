package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs command-line clients (curl, grpcurl) as real processes. */
final class Tools {

  private Tools() {}

  /** What a command printed (standard output and error, in order) and its exit code. */
  record Output(int exitCode, String text) {}

  /**
   * The executable {@code name} on the PATH, or where {@code go install} puts it ($GOBIN, $GOPATH/bin,
   * ~/go/bin); null if there is none.
   */
  static Path find(String name) {
    List<Path> candidates = new ArrayList<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      candidates.add(Path.of(dir, name));
    }
    String gobin = System.getenv("GOBIN");
    if (gobin != null && !gobin.isEmpty()) {
      candidates.add(Path.of(gobin, name));
    }
    String gopath = System.getenv("GOPATH");
    if (gopath != null && !gopath.isEmpty()) {
      candidates.add(Path.of(gopath.split(File.pathSeparator)[0], "bin", name));
    }
    candidates.add(Path.of(System.getProperty("user.home"), "go", "bin", name));
    return candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
  }

  /** Runs {@code command} to its end (30 s at most). */
  static Output run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), () -> "still running: " + command);
    return new Output(process.exitValue(), text);
  }
}
