package io.triplerpc.shaded.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What triple-netty-shaded's jar and published pom hold: Triple's classes with Netty relocated, no
 * class of the application's Netty named anywhere, the native epoll and io_uring libraries renamed, and
 * dependencies that bring neither Netty nor the artifacts the jar replaces.
 */
class ShadedJarTest {

  /** Where Netty went in the jar, as a path. */
  static final String RELOCATED = "io/triplerpc/shaded/io/netty/";

  private static Path jar;
  private static List<String> entries;

  @BeforeAll
  static void open() throws IOException {
    // The jar Triple's own classes are loaded from: the shaded one, or this test tests nothing.
    jar = Path.of(TripleServer.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    assertTrue(jar.getFileName().toString().matches("triple-netty-shaded-.*\\.jar"), "Triple comes from " + jar);
    entries = new ArrayList<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      Collections.list(file.entries()).forEach(entry -> entries.add(entry.getName()));
    }
  }

  @Test
  void holdsTripleAndNettyRelocatedAndNoEntryUnderIoNetty() {
    assertTrue(entries.contains("io/triplerpc/internal/client/TripleInvoker.class"), "triple-core is inside");
    assertTrue(entries.contains("io/triplerpc/transport/netty/internal/EventLoops.class"), "the transport is inside");
    assertTrue(entries.contains(RELOCATED + "handler/codec/http2/Http2FrameCodec.class"), "Netty is inside, relocated");
    assertTrue(entries.contains(RELOCATED + "channel/epoll/EpollSocketChannel.class"), "epoll is inside, relocated");
    assertTrue(entries.contains(RELOCATED + "channel/uring/IoUringSocketChannel.class"), "io_uring is inside, relocated");
    List<String> unrelocated = entries.stream().filter(name -> name.startsWith("io/netty/")).toList();
    assertEquals(List.of(), unrelocated);
  }

  @Test
  void nativeLibrariesAreRenamedForTheRelocatedPackage() {
    List<String> natives = entries.stream()
        .filter(name -> name.startsWith("META-INF/native/") && !name.endsWith("/"))
        .sorted()
        .toList();
    // NativeLibraryLoader looks for "lib" + the relocated package prefix, '.' as '_', + the library's name.
    assertEquals(List.of(
        "META-INF/native/libio_triplerpc_shaded_netty_transport_native_epoll_aarch_64.so",
        "META-INF/native/libio_triplerpc_shaded_netty_transport_native_epoll_x86_64.so",
        "META-INF/native/libio_triplerpc_shaded_netty_transport_native_io_uring42_aarch_64.so",
        "META-INF/native/libio_triplerpc_shaded_netty_transport_native_io_uring42_x86_64.so"), natives);
  }

  @Test
  void noNettyMetadataThatWouldPassForTheApplicationsNetty() {
    List<String> stray = entries.stream()
        .filter(name -> name.equals("META-INF/io.netty.versions.properties") || name.endsWith("module-info.class")
            || name.startsWith("META-INF/native-image/") || name.equals("META-INF/INDEX.LIST"))
        .toList();
    assertEquals(List.of(), stray);
  }

  /** No class in the jar refers to an unrelocated Netty class ({@link ClassFiles#namesUnrelocatedNetty}). */
  @Test
  void noClassNamesAnUnrelocatedNettyClass() throws IOException {
    assertEquals(Set.of(), ClassFiles.namingUnrelocatedNetty(jar));
  }

  /**
   * The pom installed and deployed with the jar (the shade plugin's dependency-reduced pom) brings the
   * dependencies of what is inside, and neither Netty nor the artifacts the jar replaces.
   */
  @Test
  void publishedPomDependsOnNeitherNettyNorWhatTheJarReplaces() throws IOException {
    Path pom = Path.of("..", "triple-netty-shaded", "target", "dependency-reduced-pom.xml");
    assertTrue(Files.isRegularFile(pom), pom + " (written when triple-netty-shaded is packaged)");
    String xml = Files.readString(pom, StandardCharsets.UTF_8);
    String dependencies = xml.substring(xml.indexOf("<dependencies>"), xml.indexOf("</dependencies>"));
    Set<String> artifacts = new TreeSet<>();
    Matcher dependency = Pattern.compile(
        "<dependency>\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>").matcher(dependencies);
    while (dependency.find()) {
      artifacts.add(dependency.group(1) + ":" + dependency.group(2));
    }
    assertTrue(artifacts.contains("io.triplerpc:triple-serialization"), artifacts.toString());
    assertTrue(artifacts.contains("org.jctools:jctools-core"), artifacts.toString());
    assertTrue(artifacts.contains("org.slf4j:slf4j-api"), artifacts.toString());
    List<String> replaced = artifacts.stream()
        .filter(a -> a.startsWith("io.netty:") || a.equals("io.triplerpc:triple-core")
            || a.equals("io.triplerpc:triple-transport-netty"))
        .toList();
    assertEquals(List.of(), replaced);
  }
}
