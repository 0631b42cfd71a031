package io.triplerpc.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleServer;
import io.triplerpc.examples.greeter.Greeter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The curl examples of the README's "Call it with curl" section, run as printed against the
 * examples' greeter (port 50051 replaced by the test server's): each command's output must be the
 * {@code #} lines that follow it ({@code ...} matches anything).
 */
class ReadmeCurlExamplesTest {

  private TripleServer server;

  @BeforeEach
  void start() {
    server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .addService(Greeter.class, new GreeterServiceImpl())
        .build()
        .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  /** A command of the README and the output it shows. */
  record Example(String command, String output) {}

  @Test
  void everyCurlExampleAnswersAsPrinted() throws Exception {
    List<Example> examples = examples(Files.readString(Path.of("../README.md"), StandardCharsets.UTF_8));
    assertTrue(examples.size() >= 5, "the section's examples: " + examples);
    for (Example example : examples) {
      String command = example.command().replace("localhost:50051", "127.0.0.1:" + server.port());
      Path errors = Files.createTempFile("curl", ".err");
      Process process = new ProcessBuilder("bash", "-c", command).redirectError(errors.toFile()).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      assertTrue(process.waitFor(20, TimeUnit.SECONDS), command);
      String stderr = Files.readString(errors);
      Files.delete(errors);
      assertEquals(0, process.exitValue(), () -> command + "\n" + output + "\n" + stderr);
      assertTrue(matches(example.output(), output), () -> command + "\nprinted: " + example.output() + "\nactual:  " + output);
    }
  }

  private static boolean matches(String expected, String actual) {
    StringBuilder regex = new StringBuilder();
    String[] parts = expected.split(Pattern.quote("..."), -1);
    for (int i = 0; i < parts.length; i++) {
      regex.append(Pattern.quote(parts[i]));
      if (i < parts.length - 1) {
        regex.append(".*");
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(actual).matches();
  }

  /** The bash block of the section: commands (with their continuation lines) and the output after each. */
  static List<Example> examples(String readme) {
    int section = readme.indexOf("## Call it with curl");
    assertFalse(section < 0, "the README has its curl section");
    int start = readme.indexOf("```bash\n", section) + "```bash\n".length();
    int end = readme.indexOf("```", start);
    List<Example> examples = new ArrayList<>();
    StringBuilder command = new StringBuilder();
    StringBuilder output = new StringBuilder();
    for (String line : readme.substring(start, end).split("\n")) {
      if (line.startsWith("# ")) {
        output.append(output.length() > 0 ? "\n" : "").append(line.substring(2));
        continue;
      }
      if (command.length() > 0 && !command.toString().endsWith("\\")) {
        examples.add(new Example(command.toString(), output.toString()));
        command.setLength(0);
        output.setLength(0);
      }
      command.append(command.length() > 0 ? "\n" : "").append(line);
    }
    if (command.length() > 0) {
      examples.add(new Example(command.toString(), output.toString()));
    }
    return examples;
  }
}
