package io.triplerpc.shaded.tests;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/** Reads class files for the names of Netty's classes they hold. */
final class ClassFiles {

  private ClassFiles() {}

  /**
   * Whether a class refers to an unrelocated Netty class: a constant naming {@code io/netty/...} or
   * {@code io.netty....} from its first character (a class or a string such as a class name for
   * reflection), or a descriptor naming {@code Lio/netty/...}. Netty's log messages that quote a
   * property by its old name ({@code "-Dio.netty.noUnsafe: {}"}) neither start with it nor name a class.
   */
  static boolean namesUnrelocatedNetty(byte[] classFile) {
    return names(classFile, "io/netty/") || names(classFile, "io.netty.");
  }

  /** The classes of a jar or a classes directory that {@link #namesUnrelocatedNetty} finds. */
  static Set<String> namingUnrelocatedNetty(Path jarOrDirectory) throws IOException {
    Set<String> offenders = new TreeSet<>();
    if (Files.isDirectory(jarOrDirectory)) {
      List<Path> classes;
      try (Stream<Path> files = Files.walk(jarOrDirectory)) {
        classes = files.filter(file -> file.toString().endsWith(".class")).toList();
      }
      for (Path file : classes) {
        if (namesUnrelocatedNetty(Files.readAllBytes(file))) {
          offenders.add(jarOrDirectory.relativize(file).toString());
        }
      }
      return offenders;
    }
    try (JarFile jar = new JarFile(jarOrDirectory.toFile())) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        if (!entry.getName().endsWith(".class")) {
          continue;
        }
        try (InputStream in = jar.getInputStream(entry)) {
          if (namesUnrelocatedNetty(in.readAllBytes())) {
            offenders.add(entry.getName());
          }
        }
      }
    }
    return offenders;
  }

  /**
   * Whether {@code prefix} starts a constant-pool UTF-8 entry (tag 1, then a two-byte length) or
   * follows the {@code L} of a type descriptor in {@code classFile}.
   */
  private static boolean names(byte[] classFile, String prefix) {
    byte[] needle = prefix.getBytes(StandardCharsets.US_ASCII);
    for (int i = 3; i + needle.length <= classFile.length; i++) {
      if (!startsWith(classFile, i, needle)) {
        continue;
      }
      boolean entryStart = classFile[i - 3] == 1
          && ((classFile[i - 2] & 0xff) << 8 | classFile[i - 1] & 0xff) >= needle.length;
      if (entryStart || classFile[i - 1] == 'L') {
        return true;
      }
    }
    return false;
  }

  private static boolean startsWith(byte[] bytes, int offset, byte[] prefix) {
    for (int j = 0; j < prefix.length; j++) {
      if (bytes[offset + j] != prefix[j]) {
        return false;
      }
    }
    return true;
  }
}
