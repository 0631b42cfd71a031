package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.TripleServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Keeps docs/getting-started.md ("Spring Boot") true, where this project sits in Triple's repository
 * (skipped elsewhere): each file it shows is this project's file, and each command it shows prints what it
 * shows, run against this application on a free port.
 */
@SpringBootTest(properties = {"triple.server.port=0", "triple.server.host=127.0.0.1"})
class GettingStartedDocTest {

  private static final Path DOC = Path.of("../../docs/getting-started.md");

  @Autowired
  private TripleServer server;

  private static String section() throws Exception {
    assumeTrue(Files.exists(DOC), "not in Triple's repository: " + DOC.toAbsolutePath());
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int start = doc.indexOf("\n## Spring Boot\n");
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
      tests.add(DynamicTest.dynamicTest(path, () ->
          assertEquals(Files.readString(Path.of(path), StandardCharsets.UTF_8), shown, path + " as the document shows it")));
    }
    assertEquals(5, tests.size(), "the pom, three classes and application.properties");
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
        } else if (!line.isEmpty()) {
          printed.append(line).append('\n');
        }
      }
    }
    assertTrue(tests.size() >= 1, "the curl command");
    return tests;
  }

  private DynamicTest commandTest(String command, String printed) {
    return DynamicTest.dynamicTest(command, () -> {
      Process process = new ProcessBuilder("bash", "-c", command.replace("localhost:50051", "127.0.0.1:" + server.port()))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(30, TimeUnit.SECONDS), "still running: " + command);
      assumeTrue(process.exitValue() != 127, "not installed: " + command);
      assertEquals(0, process.exitValue(), command + "\n" + output);
      assertEquals(printed.strip(), output.strip(), command);
    });
  }
}
