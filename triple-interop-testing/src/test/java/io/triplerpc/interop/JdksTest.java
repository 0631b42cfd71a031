package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@link Jdks} tells a JDK and its version. */
class JdksTest {

  @TempDir
  Path temp;

  @Test
  void theFeatureVersionOfEachForm() {
    assertEquals(Optional.of(17), Jdks.feature("17.0.15"));
    assertEquals(Optional.of(25), Jdks.feature("25"));
    assertEquals(Optional.of(21), Jdks.feature("21-ea"));
    assertEquals(Optional.of(8), Jdks.feature("1.8.0_402"));
    assertEquals(Optional.empty(), Jdks.feature("unknown"));
  }

  @Test
  void aJdkHasAReleaseFileAndBothJavaAndJavac() throws Exception {
    Path home = temp.resolve("jdk-21");
    Files.createDirectories(home.resolve("bin"));
    Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"21.0.5\"\n");
    executable(home.resolve("bin").resolve("java"));
    assertEquals(Optional.empty(), Jdks.read(home), "a JRE (no javac) cannot compile the resolver");
    executable(home.resolve("bin").resolve("javac"));
    assertEquals(Optional.of(new Jdks.Jdk(home, 21)), Jdks.read(home));
    assertEquals(Optional.empty(), Jdks.read(temp.resolve("nothing")));
  }

  private static void executable(Path file) throws Exception {
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
