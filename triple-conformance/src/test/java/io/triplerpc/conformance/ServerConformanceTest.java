package io.triplerpc.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.testing.GoTools;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Connect conformance suite ({@code connectconformance} v1.0.5) in server mode against Triple's
 * server under test, with every feature the suite knows ({@code config/server.yaml}), and no list of cases allowed to
 * fail. The servers under test run with Netty's leak detector at PARANOID; a leak they report fails
 * the run. {@code .ci/run} installs the runner; where it and Go are both missing, the test is skipped.
 */
class ServerConformanceTest {

  static final String RUNNER_PACKAGE = "connectrpc.com/conformance/cmd/connectconformance@v1.0.5";
  private static final Pattern SUMMARY = Pattern.compile("(?m)^(\\d+) passed, (\\d+) failed$");
  /** The cases config/server.yaml selects. */
  private static final int CASES = 3800;

  @TempDir
  Path output;

  @Test
  void everyCaseOfTheClaimedFeaturesPasses() throws Exception {
    run("server", Path.of("config/server.yaml"), ServerUnderTest.class, CASES, output);
  }

  /**
   * Runs the suite in {@code mode} with {@code config} against {@code program} of this module, and
   * checks that every one of its {@code cases} passed and that the programs leaked nothing.
   */
  static void run(String mode, Path config, Class<?> program, int cases, Path output) throws Exception {
    Path runner = GoTools.findOrInstall("connectconformance", RUNNER_PACKAGE);
    assumeTrue(runner != null, "connectconformance is not installed and Go is missing (go install "
        + RUNNER_PACKAGE + "); skipping the Connect conformance run");
    Path log = output.resolve("connectconformance-" + mode + ".log");
    Process process = new ProcessBuilder(command(runner, mode, config, programUnderTest(program)))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    if (!process.waitFor(15, TimeUnit.MINUTES)) {
      process.destroyForcibly();
    }
    String report = Files.readString(log, StandardCharsets.UTF_8);
    assertFalse(report.contains("LEAK:"), () -> "The program under test leaked buffers:\n" + report);
    Matcher summary = SUMMARY.matcher(report);
    assertTrue(summary.find(), () -> "No summary from connectconformance:\n" + report);
    assertEquals("0", summary.group(2), () -> failures(report));
    assertEquals(cases, Integer.parseInt(summary.group(1)), () -> "Not the cases the config selects:\n" + report);
    assertEquals(0, process.exitValue(), report);
  }

  static List<String> command(Path runner, String mode, Path config, List<String> program) {
    List<String> command = new java.util.ArrayList<>(List.of(
        runner.toString(), "--mode", mode, "--conf", config.toString(), "--"));
    command.addAll(program);
    return command;
  }

  /** The program the runner starts: one of this module's, leak detection at PARANOID. */
  static List<String> programUnderTest(Class<?> program) throws Exception {
    String classpath = Path.of("target/classes") + File.pathSeparator
        + Files.readString(Path.of("target/runtime-classpath.txt"), StandardCharsets.UTF_8).trim();
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dio.netty.leakDetection.level=PARANOID", "-cp", classpath, program.getName());
  }

  /** The failed cases of a report, each with its reasons, first. */
  private static String failures(String report) {
    StringBuilder failed = new StringBuilder("Cases failed:\n");
    report.lines().filter(line -> line.startsWith("FAILED:") || line.startsWith("\t")).forEach(line -> failed.append(line).append('\n'));
    return failed.toString();
  }
}
