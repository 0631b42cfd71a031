package io.triplerpc.transport.netty.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real curl binary (tests that need it are skipped where it is missing). */
final class Curl {

  /** curl's answer: status of the last response, its headers, its body, and what curl -v said. */
  record Answer(int status, String headers, String body, String verbose) {

    /** The last value of header {@code name} (any case) of the last response, or null. */
    String header(String name) {
      String value = null;
      for (String line : headers.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
          value = line.substring(colon + 1).trim();
        }
      }
      return value;
    }
  }

  private final Path dir;

  /** @param dir where curl's output files go (a test's temporary directory) */
  Curl(Path dir) {
    this.dir = dir;
  }

  Answer run(String... args) throws IOException, InterruptedException {
    assumeTrue(available(), "curl is not installed: the curl tests need the real curl binary");
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path headers = Files.createTempFile(dir, "headers", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "-v", "--max-time", "10", "-D", headers.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
    assertTrue(process.waitFor(20, TimeUnit.SECONDS), "curl finished");
    String verbose = Files.readString(err, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), () -> "curl failed: " + verbose);
    String head = Files.readString(headers, StandardCharsets.UTF_8);
    int status = 0;
    for (String line : head.split("\r\n")) {
      if (line.startsWith("HTTP/")) {
        status = Integer.parseInt(line.split(" ")[1]);
      }
    }
    return new Answer(status, head, Files.readString(out, StandardCharsets.UTF_8), verbose);
  }

  private static boolean available() {
    try {
      Process process = new ProcessBuilder("curl", "--version").redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
