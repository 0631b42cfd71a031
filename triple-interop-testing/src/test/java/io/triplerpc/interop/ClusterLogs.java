package io.triplerpc.interop;

import io.triplerpc.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The invariants of {@link ClusterFaultScheduleTest}, checked from the logs its JVMs wrote, not from their memory.
 *
 * <p>A consumer's call log has one line per ended call: {@code id method idempotent startMillis
 * endMillis elapsedMicros status provider message} (provider {@code -} when no answer came; the message
 * runs to the end of the line). A provider's execution log has one line per call it ran, written
 * before it answered: {@code id method provider millis}.
 */
final class ClusterLogs {

  /** The statuses that say what happened to a call the cluster could not serve. */
  static final Set<Status.Code> EXPLAINED_FAILURES =
      EnumSet.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED, Status.Code.CANCELLED);

  private ClusterLogs() {}

  static String callLine(ClusterCalls.Call call) {
    return call.id() + ' ' + call.method() + ' ' + call.idempotent() + ' ' + call.startMillis() + ' '
        + call.endMillis() + ' ' + (call.endNanos() - call.startNanos()) / 1_000 + ' ' + call.code() + ' '
        + call.provider() + ' ' + call.message().replace('\n', ' ');
  }

  /** What the logs showed: the calls by status, and every broken invariant, one line each. */
  record Report(int calls, int executions, Map<String, Integer> byStatus, List<String> violations) {}

  /**
   * Checks every consumer call against {@code deadline} plus {@code slack} and the statuses allowed, every
   * answered call against the execution log of the provider that answered it, and that no call of a
   * method that is not idempotent ran twice anywhere.
   */
  static Report check(List<Path> callLogs, List<Path> executionLogs, Duration deadline, Duration slack)
      throws IOException {
    List<String> violations = new ArrayList<>();
    // id -> the providers that ran it (once per run).
    Map<String, List<String>> ranBy = new HashMap<>();
    Map<String, String> methodOf = new HashMap<>();
    int executions = 0;
    for (Path file : executionLogs) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String[] f = line.split(" ");
        if (f.length != 4) {
          // A provider killed mid-write may leave half a line: still a run, of a call it never answered.
          violations.add(file.getFileName() + ": unreadable line '" + line + "'");
          continue;
        }
        executions++;
        ranBy.computeIfAbsent(f[0], id -> new ArrayList<>()).add(f[2]);
        methodOf.put(f[0], f[1]);
      }
    }
    ranBy.forEach((id, providers) -> {
      if (providers.size() > 1 && "append".equals(methodOf.get(id))) {
        violations.add("append " + id + " ran " + providers.size() + " times, on " + providers);
      }
    });

    long limitMicros = (deadline.toNanos() + slack.toNanos()) / 1_000;
    Map<String, Integer> byStatus = new TreeMap<>();
    int calls = 0;
    for (Path file : callLogs) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String[] f = line.split(" ", 9);
        calls++;
        String id = f[0];
        long elapsedMicros = Long.parseLong(f[5]);
        Status.Code code = Status.Code.valueOf(f[6]);
        String provider = f[7];
        String message = f.length > 8 ? f[8].trim() : "";
        byStatus.merge(f[1] + ' ' + code, 1, Integer::sum);
        if (elapsedMicros > limitMicros) {
          violations.add(id + " took " + elapsedMicros / 1_000 + " ms, past its deadline of " + deadline.toMillis()
              + " ms + " + slack.toMillis() + " ms: " + line);
        }
        if (code == Status.Code.OK) {
          List<String> ran = ranBy.getOrDefault(id, List.of());
          if (!ran.contains(provider)) {
            violations.add(id + " was answered by " + provider + ", whose log does not show it ran: " + line);
          }
        } else if (!EXPLAINED_FAILURES.contains(code) || message.isEmpty()) {
          violations.add(id + " ended " + code + " without saying what happened: " + line);
        }
      }
    }
    return new Report(calls, executions, byStatus, violations);
  }

  /** The lines of {@code output} that report a leak. */
  static List<String> leaks(String output) {
    return output.lines().filter(line -> line.contains("LEAK:")).toList();
  }
}
