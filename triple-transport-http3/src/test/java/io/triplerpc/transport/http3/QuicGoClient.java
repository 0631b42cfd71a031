package io.triplerpc.transport.http3;

import io.triplerpc.testing.GoTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The quic-go client ({@code src/test/go/h3client}: connect-go over quic-go's {@code http3.Transport}),
 * built once into {@code target/h3client/<hash of its sources>/} with {@code go build}; its go.mod and
 * go.sum pin every module, which Go fetches through its module proxy on the first build of a machine.
 */
final class QuicGoClient {

  private static final List<String> SOURCES = List.of("go.mod", "go.sum", "main.go");

  private QuicGoClient() {}

  /** Why the client cannot be built here, or null if it can. */
  static String unavailable() {
    return GoTools.find("go") == null
        ? "Go is not installed: the quic-go client (connect-go over HTTP/3) cannot be built" : null;
  }

  /**
   * The client's executable, built now unless a build of the same sources is there.
   *
   * @throws IllegalStateException with the build's output if it fails
   */
  static synchronized Path build() throws IOException, InterruptedException {
    Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    Path sources = base.resolve("src/test/go/h3client");
    Path dir = base.resolve("target/h3client").resolve(hash(sources));
    Path executable = dir.resolve("h3client");
    if (Files.isExecutable(executable)) {
      return executable;
    }
    Path work = dir.resolve("src");
    Files.createDirectories(work);
    for (String name : SOURCES) {
      Files.copy(sources.resolve(name), work.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
    Path log = dir.resolve("build.log");
    Path building = dir.resolve("h3client.partial");
    ProcessBuilder go = new ProcessBuilder(GoTools.find("go").toString(), "build", "-o", building.toString(), ".")
        .directory(work.toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    // No VCS stamping (the copy sits in a git work tree) and no go.work from above.
    Map<String, String> env = go.environment();
    env.put("GOFLAGS", "-buildvcs=false -mod=mod");
    env.put("GOWORK", "off");
    Process process = go.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException("go build timed out:\n" + Files.readString(log));
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException("go build failed (" + process.exitValue() + "):\n" + Files.readString(log));
    }
    Files.move(building, executable, StandardCopyOption.REPLACE_EXISTING);
    return executable;
  }

  /** The first 16 hex digits of a SHA-256 over the sources. */
  private static String hash(Path sources) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    for (String name : SOURCES) {
      digest.update(name.getBytes(StandardCharsets.UTF_8));
      digest.update(Files.readAllBytes(sources.resolve(name)));
    }
    return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
  }
}
