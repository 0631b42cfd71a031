package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The JVM name resolver of a child JVM that asks a {@code TestDnsServer} (JEP 418, JDK 18+):
 * {@code resolver/TestDnsResolverProvider.java} among the test resources, compiled when a test needs it
 * by a JDK new enough, since the build targets Java 17, which lacks the SPI.
 */
final class TestResolverProvider {

  private static final String SOURCE = "io/triplerpc/interop/resolver/TestDnsResolverProvider.java";

  private TestResolverProvider() {}

  /**
   * Compiles the provider with {@code jdk} against the test class path into a directory under
   * {@code temp} that also registers it in {@code META-INF/services}: a class path entry for the child
   * JVM only.
   */
  static Path compile(Jdks.Jdk jdk, Path temp) throws Exception {
    Path source = temp.resolve("src").resolve(SOURCE);
    Files.createDirectories(source.getParent());
    try (InputStream in = TestResolverProvider.class.getResourceAsStream("/jdk18/" + SOURCE)) {
      assertNotNull(in, "the provider's source is among the test resources");
      Files.copy(in, source);
    }
    Path classes = temp.resolve("classes");
    Path log = temp.resolve("javac.log");
    Process javac = new ProcessBuilder(jdk.home().resolve("bin").resolve("javac").toString(),
        "-proc:none", "-cp", JavaProcess.testClassPath(), "-d", classes.toString(),
        source.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertTrue(javac.waitFor(120, TimeUnit.SECONDS), "javac of JDK " + jdk.feature() + " did not finish");
    } finally {
      javac.destroyForcibly();
    }
    assertEquals(0, javac.exitValue(), "javac of " + jdk.home() + ":\n" + Files.readString(log));
    Path services = classes.resolve("META-INF").resolve("services").resolve("java.net.spi.InetAddressResolverProvider");
    Files.createDirectories(services.getParent());
    Files.writeString(services, "io.triplerpc.interop.resolver.TestDnsResolverProvider\n", StandardCharsets.UTF_8);
    return classes;
  }

  /** The child JVM's options that send lookups of names under {@code domain} to {@code server} (host:port). */
  static List<String> options(String server, String domain) {
    return List.of("-Dtriple.test.dns.server=" + server, "-Dtriple.test.dns.domain=" + domain);
  }
}
