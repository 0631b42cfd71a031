package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.zookeeper.DubboFormat.DubboInstance;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzz target for what Apache Dubbo 3.3 writes into ZooKeeper, as Triple's Dubbo layout reads it
 * (Jazzer): instance znodes (Curator's {@code ServiceInstance} JSON around Dubbo's
 * {@code ZookeeperInstance}, its endpoints and its metadata service's URL parameters), metadata
 * reports (Dubbo's {@code MetadataInfo}: each service's URL parameters) and interface mappings. An
 * input is a znode as {@code src/test/resources/dubbo-3.3.6/znodes.txt} holds it: its path on one line,
 * its data after, so that the captured znodes are the seeds.
 *
 * <p>Beyond "nothing escapes": a malformed znode is refused with IllegalArgumentException, the one
 * failure the directory skips with a warning (anything else would end its subscription); an instance
 * or a report that is read writes back (as Triple writes its own for Dubbo) and reads again to the same
 * instance or metadata; a mapping reads as trimmed, non-empty names without commas, and reads the same
 * once written back.
 */
class DubboZnodesFuzzTest {

  @FuzzTest
  void znodes(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    int newline = text.indexOf('\n');
    String path = newline < 0 ? "" : text.substring(0, newline);
    byte[] data = newline < 0 ? input : text.substring(newline + 1).getBytes(StandardCharsets.UTF_8);
    List<String> segments = Arrays.asList(path.split("/", -1));
    if (path.startsWith("/dubbo/metadata/") && segments.size() == 5) {
      metadata(segments.get(3), segments.get(4), data);
    } else if (path.startsWith("/dubbo/mapping/")) {
      mapping(new String(data, StandardCharsets.UTF_8));
    } else {
      String application = path.startsWith("/services/") && segments.size() == 4 ? segments.get(2) : "capture-local";
      instance(application, segments.get(segments.size() - 1), data);
    }
  }

  private static void instance(String application, String name, byte[] data) {
    DubboInstance decoded;
    try {
      decoded = DubboFormat.decodeInstance(application, name, data);
    } catch (IllegalArgumentException malformed) {
      assertMessage(malformed);
      return;
    }
    ServiceInstance instance = decoded.instance();
    assertEquals(application, instance.application());
    byte[] written = DubboFormat.encodeInstance(instance, 1_795_661_237_407L);
    ServiceInstance reread = DubboFormat.decodeInstance(application,
        DubboFormat.instanceId(instance.host(), instance.port()), written).instance();
    assertEquals(instance, reread, "an instance read writes back and reads the same");
  }

  private static void metadata(String application, String revision, byte[] data) {
    MetadataInfo decoded;
    try {
      decoded = DubboFormat.decodeMetadata(application, revision, data);
    } catch (IllegalArgumentException malformed) {
      assertMessage(malformed);
      return;
    }
    MetadataInfo reread = DubboFormat.decodeMetadata(application, decoded.revision(),
        DubboFormat.encodeMetadata(decoded));
    assertEquals(decoded, reread, "a report read writes back and reads the same");
  }

  private static void mapping(String content) {
    List<String> applications = DubboFormat.split(content);
    for (String application : applications) {
      assertFalse(application.isEmpty() || application.contains(",") || !application.equals(application.trim()),
          () -> "a mapping's name: '" + application + "'");
    }
    assertEquals(applications, DubboFormat.split(String.join(",", applications)));
  }

  private static void assertMessage(IllegalArgumentException malformed) {
    assertTrue(malformed.getMessage() != null && !malformed.getMessage().isEmpty(), "a refusal says why");
  }
}
