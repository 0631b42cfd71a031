package io.triplerpc.benchmark.registry;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.ObjectName;

/**
 * The live heap by class, as {@code jcmd <pid> GC.class_histogram} prints it (after a full GC), taken
 * through the JVM's diagnostic command bean; the difference of two shows what a step retained.
 */
final class Histogram {

  private Histogram() {}

  /** Class name to {instances, bytes} of the live heap now. */
  static Map<String, long[]> take() throws Exception {
    String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    Map<String, long[]> classes = new HashMap<>();
    for (String line : text.split("\n")) {
      // "   1:        123456      7890123  java.lang.String (java.base@17)"
      String[] fields = line.trim().split("\\s+");
      if (fields.length < 4 || !fields[0].endsWith(":")) {
        continue;
      }
      classes.put(fields[3], new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2])});
    }
    return classes;
  }

  /** Prints the classes that grew from {@code before} to {@code after}, in bytes per instance of the directory. */
  static void printDifference(Map<String, long[]> before, Map<String, long[]> after, long instances) {
    List<Object[]> rows = new ArrayList<>();
    long total = 0;
    for (Map.Entry<String, long[]> e : after.entrySet()) {
      long[] was = before.getOrDefault(e.getKey(), new long[2]);
      long objects = e.getValue()[0] - was[0];
      long bytes = e.getValue()[1] - was[1];
      total += bytes;
      if (Math.abs(bytes) >= instances / 10) {
        rows.add(new Object[] {e.getKey(), objects, bytes});
      }
    }
    rows.sort((a, b) -> Long.compare((Long) b[2], (Long) a[2]));
    System.out.printf(Locale.ROOT, "heap histogram of the full sync (live objects after GC, difference; per instance of %,d):%n", instances);
    System.out.printf(Locale.ROOT, "  %-60s %14s %16s %10s %10s%n", "class", "objects", "bytes", "obj/inst", "B/inst");
    for (Object[] row : rows) {
      long objects = (Long) row[1];
      long bytes = (Long) row[2];
      System.out.printf(Locale.ROOT, "  %-60s %,14d %,16d %10.3f %10.1f%n", row[0], objects, bytes,
          objects / (double) instances, bytes / (double) instances);
    }
    System.out.printf(Locale.ROOT, "  %-60s %14s %,16d %10s %10.1f%n", "total", "", total, "", total / (double) instances);
  }
}
