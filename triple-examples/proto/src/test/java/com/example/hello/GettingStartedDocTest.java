package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.TripleServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Keeps the section "From a .proto file" of docs/getting-started.md true where this project sits in
 * Triple's repository (skipped elsewhere): every file it shows is this project's file, and every curl
 * and grpcurl command it shows prints what it shows, against {@link Main}'s server on a free port.
 */
class GettingStartedDocTest {

  private static final Path DOC = Path.of("../../docs/getting-started.md");

  private static TripleServer server;

  @BeforeAll
  static void start() {
    assumeTrue(Files.exists(DOC), "not in Triple's repository: " + DOC.toAbsolutePath());
    server = Main.server().host("127.0.0.1").port(0).build().start();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (server != null) {
      server.shutdown();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "the server stopped");
    }
  }

  private static String section() throws Exception {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int start = doc.indexOf("\n## From a .proto file\n");
    assertFalse(start < 0, "the document has the section");
    int end = doc.indexOf("\n## ", start + 1);
    return doc.substring(start, end < 0 ? doc.length() : end);
  }

  @TestFactory
  List<DynamicTest> everyFileShownIsThisProjectsFile() throws Exception {
    Matcher file = Pattern.compile("\n`([\\w./-]+)`:\n\n```\\w*\n(.*?)```\n", Pattern.DOTALL).matcher(section());
    List<DynamicTest> tests = new ArrayList<>();
    while (file.find()) {
      String path = file.group(1);
      String shown = file.group(2);
      tests.add(DynamicTest.dynamicTest(path, () -> assertEquals(
          Files.readString(Path.of(path), StandardCharsets.UTF_8), shown, path + " as the document shows it")));
    }
    assertEquals(4, tests.size(), "the pom, the .proto file and two classes");
    return tests;
  }

  @TestFactory
  List<DynamicTest> everyCommandShownPrintsWhatItShows() throws Exception {
    Matcher block = Pattern.compile("```console\n(.*?)```\n", Pattern.DOTALL).matcher(section());
    List<DynamicTest> tests = new ArrayList<>();
    while (block.find()) {
      String command = null;
      StringBuilder printed = new StringBuilder();
      for (String line : (block.group(1) + "$ ").split("\n", -1)) {
        if (line.startsWith("$ ")) {
          if (command != null) {
            tests.add(commandTest(command, printed.toString()));
          }
          command = line.substring(2);
          printed.setLength(0);
        } else if (command != null && command.endsWith("\\")) {
          command += "\n" + line;
        } else if (!line.isEmpty()) {
          printed.append(line).append('\n');
        }
      }
    }
    assertTrue(tests.size() >= 4, "the curl and grpcurl commands: " + tests.size());
    return tests;
  }

  private static DynamicTest commandTest(String command, String printed) {
    return DynamicTest.dynamicTest(command, () -> {
      String tool = command.substring(0, command.indexOf(' '));
      Path executable = find(tool);
      assumeTrue(executable != null, tool + " is not installed");
      ProcessBuilder builder = new ProcessBuilder("bash", "-c",
          command.replace("localhost:50051", "127.0.0.1:" + server.port()).replace("\\\n", " "));
      Map<String, String> environment = builder.environment();
      environment.put("PATH", executable.getParent() + File.pathSeparator + environment.getOrDefault("PATH", ""));
      Process process = builder.redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(30, TimeUnit.SECONDS), "still running: " + command);
      assertEquals(0, process.exitValue(), command + "\n" + output);
      assertEquals(printed.strip(), output.strip(), command);
    });
  }

  /** {@code name} on the PATH or where {@code go install} puts it; null if nowhere. */
  private static Path find(String name) {
    List<Path> candidates = new ArrayList<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      candidates.add(Path.of(dir, name));
    }
    String gopath = System.getenv("GOPATH");
    if (gopath != null && !gopath.isEmpty()) {
      candidates.add(Path.of(gopath.split(File.pathSeparator)[0], "bin", name));
    }
    candidates.add(Path.of(System.getProperty("user.home"), "go", "bin", name));
    return candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
  }
}
