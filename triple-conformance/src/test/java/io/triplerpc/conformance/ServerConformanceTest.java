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
  /**
   * The cases config/server-h3.yaml selects over HTTP/3. The runner runs gRPC only where HTTP/2 is claimed too,
   * so that config claims both and the HTTP/2 cases, which {@link #CASES} has, are skipped.
   */
  private static final int HTTP3_CASES = 774;
  private static final List<String> HTTP3_ONLY = List.of("--skip", "**/HTTPVersion:2/**");

  @TempDir
  Path output;

  @Test
  void everyCaseOfTheClaimedFeaturesPasses() throws Exception {
    run("server", Path.of("config/server.yaml"), ServerUnderTest.class, CASES, output);
  }

  @Test
  void everyCaseOverHttp3Passes() throws Exception {
    run("server", Path.of("config/server-h3.yaml"), ServerUnderTest.class, HTTP3_CASES, output, HTTP3_ONLY);
  }

  /**
   * Runs the suite in {@code mode} with {@code config} against {@code program} of this module, and
   * checks that every one of its {@code cases} passed and that the programs leaked nothing.
   */
  static void run(String mode, Path config, Class<?> program, int cases, Path output) throws Exception {
    run(mode, config, program, cases, output, List.of());
  }

  /** As {@link #run(String, Path, Class, int, Path)}, with more of the runner's flags ({@code --skip}). */
  static void run(String mode, Path config, Class<?> program, int cases, Path output, List<String> flags)
      throws Exception {
    Path runner = GoTools.findOrInstall("connectconformance", RUNNER_PACKAGE);
    assumeTrue(runner != null, "connectconformance is not installed and Go is missing (go install "
        + RUNNER_PACKAGE + "); skipping the Connect conformance run");
    String name = "connectconformance-" + mode + "-" + config.getFileName().toString().replace(".yaml", "");
    String report = runOnce(runner, mode, config, program, output.resolve(name + ".log"), flags, List.of());
    Matcher summary = SUMMARY.matcher(report);
    assertTrue(summary.find(), () -> "No summary from connectconformance:\n" + report);
    int passed = Integer.parseInt(summary.group(1));
    List<String> failed = failedCases(report);
    if (!failed.isEmpty() && failed.size() <= RERUN_LIMIT
        && failed.stream().allMatch(testCase -> mayRerun(testCase, report))) {
      // The runner's client gives up on a case with "context deadline exceeded" in two known ways that are
      // not the server's doing. Over HTTP/3, quic-go's http3.Transport (v0.57.1, the runner's) dials a server's
      // one connection under the context of the request that first needs it, and hands the dial's error to
      // every request waiting for that connection: when the first is one of the Timeouts cases (200 ms
      // deadline) and a cold server's first QUIC handshake takes longer on a loaded machine, the cases queued
      // behind it all fail at ~200 ms without having been sent (their traces show no response at all). Over
      // HTTP/2, on a loaded machine, a call has rarely missed its deadline on the commit before issue 34 too.
      // Such cases get one more run, alone, and must pass it. Both reports stay in the log, and the re-run
      // is printed.
      org.slf4j.LoggerFactory.getLogger(ServerConformanceTest.class).warn(
          "connectconformance {}: {} case(s) failed, run again alone: {}", mode, failed.size(), failed);
      String again = runOnce(runner, mode, config, program, output.resolve(name + "-again.log"), flags, failed);
      Matcher rerun = SUMMARY.matcher(again);
      assertTrue(rerun.find(), () -> "No summary from connectconformance's re-run:\n" + again);
      assertEquals("0", rerun.group(2), () -> "Failed again, alone:\n" + failures(again) + "\nfirst run:\n" + failures(report));
      passed += Integer.parseInt(rerun.group(1));
    } else {
      assertEquals("0", summary.group(2), () -> failures(report));
    }
    int all = passed;
    assertEquals(cases, all, () -> "Not the cases the config selects:\n" + report);
  }

  /** The most cases that get a second run; more failures than that fail the test at once. */
  private static final int RERUN_LIMIT = 24;

  /**
   * Whether a failed case may run again: one whose call stalled until the client's deadline ("context deadline
   * exceeded", the runner's client giving up), instead of the answer the case expects, as the report tells.
   */
  private static boolean mayRerun(String testCase, String report) {
    int at = report.indexOf("FAILED: " + testCase);
    if (at < 0) {
      return false;
    }
    int end = report.indexOf("\nFAILED: ", at + 1);
    String reasons = report.substring(at, end < 0 ? report.length() : end);
    return reasons.contains("context deadline exceeded");
  }

  /** Runs the suite (only {@code only}'s cases if there are any); returns its report, which has no leak. */
  private static String runOnce(Path runner, String mode, Path config, Class<?> program, Path log, List<String> flags,
      List<String> only) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of(runner.toString(), "--mode", mode, "--conf",
        config.toString()));
    command.addAll(flags);
    for (String testCase : only) {
      command.add("--run");
      command.add(testCase);
    }
    command.add("--");
    command.addAll(programUnderTest(program));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(15, TimeUnit.MINUTES)) {
      process.destroyForcibly();
    }
    String report = Files.readString(log, StandardCharsets.UTF_8);
    assertFalse(report.contains("LEAK:"), () -> "The program under test leaked buffers:\n" + report);
    return report;
  }

  /** The names of the cases a report lists as failed. */
  private static List<String> failedCases(String report) {
    return report.lines().filter(line -> line.startsWith("FAILED: "))
        .map(line -> line.substring("FAILED: ".length(), line.endsWith(":") ? line.length() - 1 : line.length()))
        .distinct().toList();
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
