package io.triplerpc.registry.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;

/**
 * The znodes and MetadataService answers a real Apache Dubbo 3.3.6 wrote, captured by hand
 * ({@code src/test/resources/dubbo-3.3.6/README.md} says how).
 */
final class DubboCapture {

  /** One captured znode: its path, whether it was ephemeral, its data as UTF-8. */
  record Znode(String path, boolean ephemeral, String data) {

    byte[] bytes() {
      return data.getBytes(StandardCharsets.UTF_8);
    }

    /** The last path segment: an instance znode's {@code host:port}. */
    String name() {
      return path.substring(path.lastIndexOf('/') + 1);
    }
  }

  /** The applications in the capture, as named in {@code znodes.txt}'s header. */
  static final String LOCAL = "capture-local";
  static final String REMOTE = "capture-remote";
  static final String REMOTE_VERSION_GROUP = "capture-remote-vg";
  static final String TWO_PROTOCOLS = "capture-two-protocols";
  static final String SERVICE = "org.example.Greeter";

  private DubboCapture() {}

  /** Every captured znode, in file order. */
  static List<Znode> znodes() {
    List<Znode> znodes = new ArrayList<>();
    String[] lines = resource("znodes.txt").split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (!line.startsWith("/")) {
        continue;
      }
      boolean ephemeral = line.endsWith(" EPHEMERAL");
      String path = ephemeral ? line.substring(0, line.length() - " EPHEMERAL".length()) : line;
      znodes.add(new Znode(path, ephemeral, lines[i + 1]));
    }
    return znodes;
  }

  /** The captured znode at {@code path}. */
  static Znode znode(String path) {
    return znodes().stream().filter(z -> z.path().equals(path)).findFirst()
        .orElseThrow(() -> new AssertionError("not captured: " + path));
  }

  /** The captured instance znode of {@code application} (each application had one instance). */
  static Znode instance(String application) {
    return znodes().stream().filter(z -> z.path().startsWith("/services/" + application + "/")).findFirst()
        .orElseThrow(() -> new AssertionError("no captured instance of " + application));
  }

  /** The captured metadata report of {@code application}. */
  static Znode report(String application) {
    return znodes().stream().filter(z -> z.path().startsWith("/dubbo/metadata/" + application + "/")).findFirst()
        .orElseThrow(() -> new AssertionError("no captured report of " + application));
  }

  /** The captured MetadataServiceV2 answer of {@code application}, in protobuf's JSON. */
  static String metadataServiceAnswer(String application) {
    return resource("metadata-service-v2-" + application + ".json");
  }

  /**
   * Writes every captured znode into ZooKeeper through {@code client}, the ephemeral ones in its
   * session (as if the Dubbo providers held them), creating parents as needed.
   */
  static void load(CuratorFramework client) throws Exception {
    for (Znode znode : znodes()) {
      write(client, znode.path(), znode.ephemeral(), znode.bytes());
    }
  }

  static void write(CuratorFramework client, String path, boolean ephemeral, byte[] data) throws Exception {
    client.create().orSetData().creatingParentContainersIfNeeded()
        .withMode(ephemeral ? CreateMode.EPHEMERAL : CreateMode.PERSISTENT)
        .forPath(path, data);
  }

  private static String resource(String name) {
    try (InputStream in = DubboCapture.class.getResourceAsStream("/dubbo-3.3.6/" + name)) {
      if (in == null) {
        throw new AssertionError("missing test resource dubbo-3.3.6/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
