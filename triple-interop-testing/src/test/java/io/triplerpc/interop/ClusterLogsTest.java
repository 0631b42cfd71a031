package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ClusterLogs} finds each broken invariant in logs written as the cluster's JVMs write them. */
class ClusterLogsTest {

  private static final Duration DEADLINE = Duration.ofMillis(1_500);
  private static final Duration SLACK = Duration.ofMillis(500);

  @TempDir
  Path logs;

  private ClusterLogs.Report check(List<String> calls, List<String> p1, List<String> p2) throws Exception {
    Files.write(logs.resolve("c.calls"), calls);
    Files.write(logs.resolve("p1.executions"), p1);
    Files.write(logs.resolve("p2.executions"), p2);
    return ClusterLogs.check(List.of(logs.resolve("c.calls")),
        List.of(logs.resolve("p1.executions"), logs.resolve("p2.executions")), DEADLINE, SLACK);
  }

  @Test
  void callsThatKeptEveryInvariantPass() throws Exception {
    ClusterLogs.Report report = check(
        List.of("c-1 read true 1 2 1000 OK p1 ", "c-2 append false 1 2 1000 OK p2 ",
            "c-3 append false 1 1600 1600000 DEADLINE_EXCEEDED - Deadline exceeded after 1500 ms",
            "c-4 read true 1 2 1000 UNAVAILABLE - HTTP/2 stream closed before the call ended"),
        // A read may run twice (retried elsewhere); a failed append may have run once, or not at all.
        List.of("c-1 read p1 1", "c-3 append p1 1", "c-4 read p1 1"), List.of("c-2 append p2 1", "c-4 read p2 1"));
    assertEquals(List.of(), report.violations());
    assertEquals(4, report.calls());
    assertEquals(5, report.executions());
    assertEquals(Map.of("read OK", 1, "append OK", 1, "append DEADLINE_EXCEEDED", 1, "read UNAVAILABLE", 1),
        report.byStatus());
  }

  @Test
  void anAppendThatRanOnTwoProvidersIsReported() throws Exception {
    ClusterLogs.Report report = check(List.of("c-1 append false 1 2 1000 OK p2 "),
        List.of("c-1 append p1 1"), List.of("c-1 append p2 2"));
    assertEquals(List.of("append c-1 ran 2 times, on [p1, p2]"), report.violations());
  }

  @Test
  void aCallPastItsDeadlineAndSlackIsReportedEvenIfItSucceeded() throws Exception {
    ClusterLogs.Report report = check(List.of("c-1 read true 1 2 2000001 OK p1 "), List.of("c-1 read p1 1"), List.of());
    assertEquals(1, report.violations().size(), report.violations()::toString);
  }

  @Test
  void failuresThatDoNotSayWhatHappenedAreReported() throws Exception {
    ClusterLogs.Report report = check(List.of("c-1 read true 1 2 1000 UNKNOWN - boom",
        "c-2 read true 1 2 1000 INTERNAL - oops", "c-3 read true 1 2 1000 UNAVAILABLE - "), List.of(), List.of());
    assertEquals(3, report.violations().size(), report.violations()::toString);
  }

  @Test
  void anAnswerFromAProviderThatDidNotRunTheCallIsReported() throws Exception {
    ClusterLogs.Report report = check(List.of("c-1 read true 1 2 1000 OK p2 "), List.of("c-1 read p1 1"), List.of());
    assertEquals(1, report.violations().size(), report.violations()::toString);
  }
}
