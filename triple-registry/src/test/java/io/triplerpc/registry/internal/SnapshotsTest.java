package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Snapshots} alone: what it writes reads back, and a file it did not write whole is ignored. */
class SnapshotsTest {

  private static final String APP = "shop";
  private static final MetadataInfo CART = MetadataInfo.of(APP,
      List.of(new ServerInfo.Service("demo.Cart", List.of("call"), "proto", "", "")));

  @TempDir
  Path folder;

  private static ServiceInstance instance(int port) {
    return ServiceInstance.of(APP, "10.0.0.1", port, CART.revision());
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.sorted().toList();
    }
  }

  private static List<Integer> ports(Snapshots.Application saved) {
    return saved.instances().stream().map(ServiceInstance::port).toList();
  }

  @Test
  void anApplicationReadsBackAsWritten() {
    List<ServiceInstance> instances = List.of(instance(1), instance(2).withWeight(250), instance(3).withWeight(0));
    new Snapshots(folder).write(APP, instances, List.of(CART));

    Snapshots.Application saved = new Snapshots(folder).read(APP);
    assertEquals(instances, saved.instances());
    assertEquals(List.of(CART), saved.metadata());
  }

  @Test
  void metadataUnderAnotherSystemsRevisionReadsBackUnderIt() {
    // An Apache Dubbo application's revision (an MD5 of its own records), not the hash of the services.
    MetadataInfo dubbo = MetadataInfo.named(APP, "fbc5f77d126d875f3c0e98d4a4de8a2c",
        List.of(new ServerInfo.Service("org.example.Greeter", List.of("hello"), "hessian2", "1.0.0", "g1")));
    new Snapshots(folder).write(APP, List.of(ServiceInstance.of(APP, "10.0.0.1", 1, dubbo.revision())),
        List.of(dubbo, CART));

    Snapshots.Application saved = new Snapshots(folder).read(APP);
    assertEquals(List.of(dubbo, CART), saved.metadata());
    assertFalse(saved.metadata().get(0).hashed());
    assertTrue(saved.metadata().get(1).hashed());
  }

  @Test
  void aRewriteReplacesTheFileAndLeavesNoTemporaryFile() throws IOException {
    Snapshots snapshots = new Snapshots(folder);
    snapshots.write(APP, List.of(instance(1), instance(2)), List.of(CART));
    snapshots.write(APP, List.of(instance(2)), List.of());

    assertEquals(List.of(2), ports(snapshots.read(APP)));
    assertEquals(List.of(), snapshots.read(APP).metadata());
    List<Path> files = files();
    assertEquals(1, files.size(), files.toString());
    assertTrue(files.get(0).getFileName().toString().endsWith(".json"), files.toString());
  }

  @Test
  void aMappingReadsBackAsWritten() {
    Snapshots snapshots = new Snapshots(folder);
    snapshots.writeMapping("demo.Cart", Set.of("shop", "cart"));
    assertEquals(Set.of("shop", "cart"), new Snapshots(folder).readMapping("demo.Cart"));
    assertNull(snapshots.readMapping("demo.Orders"));
  }

  @Test
  void namesThatDifferOnlyInReplacedCharactersKeepTheirOwnFiles() throws IOException {
    Snapshots snapshots = new Snapshots(folder);
    snapshots.writeMapping("demo/Cart", Set.of("slash"));
    snapshots.writeMapping("demo:Cart", Set.of("colon"));
    assertEquals(2, files().size(), files().toString());
    assertEquals(Set.of("slash"), snapshots.readMapping("demo/Cart"));
    assertEquals(Set.of("colon"), snapshots.readMapping("demo:Cart"));
  }

  @Test
  void nothingSavedReadsAsNullWithoutAWarning() {
    Snapshots missing = new Snapshots(folder.resolve("never-created"));
    String log = Logged.during(() -> {
      assertNull(missing.read(APP));
      assertNull(missing.readMapping("demo.Cart"));
    });
    assertFalse(log.contains("snapshot"), log);
  }

  @Test
  void aTruncatedFileIsIgnoredWithAWarningNamingIt() throws IOException {
    Snapshots snapshots = new Snapshots(folder);
    snapshots.write(APP, List.of(instance(1), instance(2)), List.of(CART));
    Path file = files().get(0);
    String whole = Files.readString(file);
    Files.writeString(file, whole.substring(0, whole.length() / 2));

    String log = Logged.during(() -> assertNull(snapshots.read(APP)));
    assertTrue(log.contains("Ignored the unreadable registry snapshot " + file), log);
  }

  @Test
  void jsonWithoutTheListsIsIgnoredWithAWarning() throws IOException {
    Snapshots snapshots = new Snapshots(folder);
    snapshots.write(APP, List.of(instance(1)), List.of(CART));
    Files.writeString(files().get(0), "{\"application\":\"shop\",\"instances\":[]}");

    String log = Logged.during(() -> assertNull(snapshots.read(APP)));
    assertTrue(log.contains("Ignored the malformed registry snapshot of shop"), log);
  }

  @Test
  void aTemporaryFileIsNotReadAsTheSnapshot() throws IOException {
    Snapshots snapshots = new Snapshots(folder);
    snapshots.write(APP, List.of(instance(2)), List.of(CART));
    Path file = files().get(0);
    // As a crash between writing the temporary file and renaming it would leave one.
    Files.move(file, folder.resolve(file.getFileName() + "4711.tmp"));
    assertNull(snapshots.read(APP), "a temporary file alone is no snapshot");

    snapshots.write(APP, List.of(instance(1)), List.of(CART));
    assertEquals(List.of(1), ports(snapshots.read(APP)));
  }

  @Test
  void aFailedWriteIsLoggedAndThrowsNothing() throws IOException {
    Path notADirectory = Files.writeString(folder.resolve("plain-file"), "");
    Snapshots snapshots = new Snapshots(notADirectory);

    String log = Logged.during(() -> snapshots.write(APP, List.of(instance(1)), List.of(CART)));
    assertTrue(log.contains("Could not write the registry snapshot"), log);
    assertNull(snapshots.read(APP));
  }
}
