package io.triplerpc.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The JDKs installed beside the one running the tests, for a test that needs a newer Java in a child
 * JVM: the running one, those that {@code JAVA_HOME}-like environment variables name
 * ({@code JAVA_HOME}, {@code JDK_HOME}, {@code JAVA_HOME_21_X64}, {@code JAVA21_HOME}...), and those in
 * the usual installation directories (Debian's {@code /usr/lib/jvm}, {@code /usr/java}, {@code /opt},
 * macOS's {@code /Library/Java/JavaVirtualMachines}, SDKMAN!, IntelliJ's {@code ~/.jdks}, GitHub
 * Actions' tool cache). A JDK is a directory with a {@code release} file naming its
 * {@code JAVA_VERSION}, and {@code bin/java} and {@code bin/javac}.
 */
final class Jdks {

  private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"?([0-9][0-9._+a-zA-Z-]*)\"?\\s*$");
  private static final Pattern HOME_VARIABLE = Pattern.compile("(JAVA|JDK)[0-9]*_HOME.*");

  /** A JDK: where it is and its feature version (17, 21, 25...). */
  record Jdk(Path home, int feature) {}

  private Jdks() {}

  /** The newest JDK of at least {@code feature}, if one is installed. */
  static Optional<Jdk> atLeast(int feature) {
    return candidates().stream().map(Jdks::read).flatMap(Optional::stream)
        .filter(jdk -> jdk.feature() >= feature)
        .max(Comparator.comparingInt(Jdk::feature));
  }

  /** Where {@link #atLeast} looks, for a message that says why it found none. */
  static String searched() {
    return "java.home, $JAVA_HOME and similar variables, /usr/lib/jvm, /usr/java, /opt, /opt/java,"
        + " /Library/Java/JavaVirtualMachines, ~/.sdkman/candidates/java, ~/.jdks, /opt/hostedtoolcache";
  }

  private static Set<Path> candidates() {
    Set<Path> candidates = new LinkedHashSet<>();
    candidates.add(Path.of(System.getProperty("java.home")));
    for (Map.Entry<String, String> variable : System.getenv().entrySet()) {
      if (HOME_VARIABLE.matcher(variable.getKey()).matches() && !variable.getValue().isBlank()) {
        candidates.add(Path.of(variable.getValue()));
      }
    }
    String home = System.getProperty("user.home");
    for (Path parent : List.of(Path.of("/usr/lib/jvm"), Path.of("/usr/java"), Path.of("/opt"), Path.of("/opt/java"),
        Path.of(home, ".sdkman", "candidates", "java"), Path.of(home, ".jdks"))) {
      candidates.addAll(children(parent));
    }
    for (Path mac : children(Path.of("/Library/Java/JavaVirtualMachines"))) {
      candidates.add(mac.resolve("Contents").resolve("Home"));
    }
    // GitHub Actions: /opt/hostedtoolcache/Java_Temurin-Hotspot_jdk/21.0.5-11/x64
    for (Path distribution : children(Path.of("/opt/hostedtoolcache"))) {
      for (Path version : children(distribution)) {
        candidates.addAll(children(version));
      }
    }
    return candidates;
  }

  private static List<Path> children(Path directory) {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> children = Files.list(directory)) {
      return children.filter(Files::isDirectory).sorted().toList();
    } catch (IOException | UncheckedIOException unreadable) {
      return List.of();
    }
  }

  /** The JDK at {@code home}, if it is one. */
  static Optional<Jdk> read(Path home) {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin").resolve("java"))
        || !Files.isExecutable(home.resolve("bin").resolve("javac"))) {
      return Optional.empty();
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(release);
    } catch (IOException unreadable) {
      return Optional.empty();
    }
    for (String line : lines) {
      Matcher version = VERSION.matcher(line);
      if (version.matches()) {
        return feature(version.group(1)).map(feature -> new Jdk(home, feature));
      }
    }
    return Optional.empty();
  }

  /** 17 of "17.0.15", 25 of "25", 8 of "1.8.0_402". */
  static Optional<Integer> feature(String version) {
    List<String> parts = new ArrayList<>(List.of(version.split("[._+-]")));
    if (parts.size() > 1 && parts.get(0).equals("1")) {
      parts.remove(0);
    }
    try {
      return Optional.of(Integer.parseInt(parts.get(0)));
    } catch (NumberFormatException notANumber) {
      return Optional.empty();
    }
  }
}
