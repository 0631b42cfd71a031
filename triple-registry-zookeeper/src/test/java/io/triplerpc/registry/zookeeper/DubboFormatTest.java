package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.util.JsonFormat;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.zookeeper.DubboFormat.DubboInstance;
import io.triplerpc.registry.zookeeper.DubboFormat.DubboService;
import io.triplerpc.registry.zookeeper.internal.proto.MetadataInfoV2;
import io.triplerpc.spi.ServerInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Dubbo's JSON, read from what Dubbo 3.3.6 really wrote ({@link DubboCapture}) and written by Triple
 * in the same shape.
 */
class DubboFormatTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void readsADubboInstanceWithLocalMetadata() {
    DubboCapture.Znode znode = DubboCapture.instance(DubboCapture.LOCAL);
    DubboInstance decoded = DubboFormat.decodeInstance(DubboCapture.LOCAL, znode.name(), znode.bytes());

    // Dubbo's "timestamp", when the captured provider started: what warm-up counts from.
    assertEquals(ServiceInstance.of(DubboCapture.LOCAL, "127.0.0.1", 50061, "fbc5f77d126d875f3c0e98d4a4de8a2c")
        .withStartTime(java.time.Instant.parse("2026-11-26T02:47:15.921Z").toEpochMilli()), decoded.instance());
    assertEquals("local", decoded.storageType());
    assertFalse(decoded.remoteMetadata());
    assertEquals("2.0.0", decoded.metadataServiceVersion());
    assertEquals("tri", decoded.metadataServiceProtocol());
    assertEquals(50061, decoded.metadataServicePort());
  }

  @Test
  void readsADubboInstanceWithRemoteMetadata() {
    DubboCapture.Znode znode = DubboCapture.instance(DubboCapture.REMOTE_VERSION_GROUP);
    DubboInstance decoded = DubboFormat.decodeInstance(DubboCapture.REMOTE_VERSION_GROUP, znode.name(), znode.bytes());

    assertEquals(ServiceInstance.of(DubboCapture.REMOTE_VERSION_GROUP, "127.0.0.1", 50063,
        "abceb1ab3906b93c6ed914f3801d0e8f").withStartTime(java.time.Instant.parse("2026-11-26T02:48:58.019Z")
        .toEpochMilli()), decoded.instance());
    assertTrue(decoded.remoteMetadata());
    assertNull(decoded.metadataServiceProtocol(), "a remote instance names no MetadataService");
  }

  @Test
  void theTriplePortOfAnInstanceWithTwoProtocolsIsItsTriEndpoint() {
    DubboCapture.Znode znode = DubboCapture.instance(DubboCapture.TWO_PROTOCOLS);
    assertEquals("127.0.0.1:20884", znode.name(), "Dubbo names the instance by its first protocol's port");

    DubboInstance decoded = DubboFormat.decodeInstance(DubboCapture.TWO_PROTOCOLS, znode.name(), znode.bytes());

    assertEquals(50064, decoded.instance().port());
    assertEquals(Map.of("dubbo", 20884), decoded.instance().extraPorts());
    assertEquals(50064, decoded.metadataServicePort());
  }

  @Test
  void readsDubboMetadataReportsAsTripleMetadata() {
    DubboCapture.Znode plain = DubboCapture.report(DubboCapture.REMOTE);
    MetadataInfo metadata = DubboFormat.decodeMetadata(DubboCapture.REMOTE, plain.name(), plain.bytes());
    assertEquals(plain.name(), metadata.revision(), "Dubbo's revision is taken as it is");
    assertFalse(metadata.hashed());
    assertEquals(List.of(new ServerInfo.Service(DubboCapture.SERVICE, List.of("add", "hello"), "hessian2,fastjson2",
        "", "")), metadata.services(), "the serializations Dubbo prefers, in its order");

    DubboCapture.Znode grouped = DubboCapture.report(DubboCapture.REMOTE_VERSION_GROUP);
    MetadataInfo versioned =
        DubboFormat.decodeMetadata(DubboCapture.REMOTE_VERSION_GROUP, grouped.name(), grouped.bytes());
    assertEquals(
        List.of(new ServerInfo.Service(DubboCapture.SERVICE, List.of("add", "hello"), "hessian2", "1.0.0", "g1")),
        versioned.services());
    assertNotNull(versioned.export(DubboCapture.SERVICE, "1.0.0", "g1"));
    assertNull(versioned.export(DubboCapture.SERVICE, "", ""), "no unversioned export");
  }

  @Test
  void readsMetadataServiceAnswersKeepingOnlyTriServices() throws Exception {
    MetadataInfoV2 local = parseV2(DubboCapture.metadataServiceAnswer(DubboCapture.LOCAL));
    assertEquals(List.of(new ServerInfo.Service(DubboCapture.SERVICE, List.of("add", "hello"), "hessian2,fastjson2",
        "1.0.0", "g1")), DubboFormat.toTriple(DubboCapture.LOCAL, local.getVersion(), services(local)).services());

    MetadataInfoV2 two = parseV2(DubboCapture.metadataServiceAnswer(DubboCapture.TWO_PROTOCOLS));
    assertEquals(2, two.getServicesCount(), "Dubbo lists the service once per protocol");
    assertEquals(List.of(new ServerInfo.Service(DubboCapture.SERVICE, List.of("add", "hello"), "hessian2,fastjson2",
        "", "")), DubboFormat.toTriple(DubboCapture.TWO_PROTOCOLS, two.getVersion(), services(two)).services(),
        "the dubbo protocol's entry is left out");
  }

  @Test
  void writesATripleInstanceInTheShapeDubboWrites() throws Exception {
    ServiceInstance instance = ServiceInstance.of("triple-app", "10.0.0.7", 50051, "0123456789abcdef01234567")
        .withWeight(40).withExtraPorts(Map.of("dubbo", 20880));
    JsonNode written = JSON.readTree(DubboFormat.encodeInstance(instance, 1_795_661_237_407L));
    JsonNode dubbo = JSON.readTree(DubboCapture.instance(DubboCapture.REMOTE).bytes());

    assertEquals(fieldNames(dubbo), fieldNames(written));
    assertEquals(fieldNames(dubbo.get("payload")), fieldNames(written.get("payload")));
    assertEquals("triple-app", written.get("name").asText());
    assertEquals("10.0.0.7:50051", written.get("id").asText());
    assertEquals("10.0.0.7", written.get("address").asText());
    assertEquals(50051, written.get("port").asInt());
    assertTrue(written.get("sslPort").isNull());
    assertEquals(1_795_661_237_407L, written.get("registrationTimeUTC").asLong());
    assertEquals("DYNAMIC", written.get("serviceType").asText());
    assertTrue(written.get("uriSpec").isNull());
    JsonNode payload = written.get("payload");
    assertEquals("org.apache.dubbo.registry.zookeeper.ZookeeperInstance", payload.get("@class").asText());
    assertEquals("10.0.0.7:50051", payload.get("id").asText());
    assertEquals("triple-app", payload.get("name").asText());
    Map<String, String> metadata = JSON.convertValue(payload.get("metadata"),
        JSON.getTypeFactory().constructMapType(Map.class, String.class, String.class));
    assertEquals(Map.of(
        "dubbo.endpoints", "[{\"port\":50051,\"protocol\":\"tri\"},{\"port\":20880,\"protocol\":\"dubbo\"}]",
        "dubbo.metadata.revision", "0123456789abcdef01234567",
        "dubbo.metadata.storage-type", "remote",
        "weight", "40"), metadata);

    DubboInstance readBack = DubboFormat.decodeInstance("triple-app", "10.0.0.7:50051",
        DubboFormat.encodeInstance(instance, 0));
    assertEquals(instance, readBack.instance());
    assertTrue(readBack.remoteMetadata());
  }

  @Test
  void writesTripleMetadataInTheShapeDubboWrites() throws Exception {
    MetadataInfo metadata = MetadataInfo.of("triple-app", List.of(
        new ServerInfo.Service(DubboCapture.SERVICE, List.of("hello", "add"), "hessian2,fastjson2,jackson", "1.0.0",
            "g1"),
        new ServerInfo.Service("shop.Orders", List.of("place"), "jackson", "", ""),
        new ServerInfo.Service("triple.demo.Greeter", List.of("SayHello"), "proto", "", "")));
    JsonNode written = JSON.readTree(DubboFormat.encodeMetadata(metadata));
    JsonNode dubbo = JSON.readTree(DubboCapture.report(DubboCapture.REMOTE_VERSION_GROUP).bytes());

    assertEquals(fieldNames(dubbo), fieldNames(written));
    assertEquals("triple-app", written.get("app").asText());
    assertEquals(metadata.revision(), written.get("revision").asText());
    assertEquals(new TreeSet<>(List.of("g1/org.example.Greeter:1.0.0:tri", "shop.Orders:tri", "triple.demo.Greeter:tri")),
        fieldNames(written.get("services")));
    JsonNode versioned = written.get("services").get("g1/org.example.Greeter:1.0.0:tri");
    assertEquals(fieldNames(dubbo.get("services").get("g1/org.example.Greeter:1.0.0:tri")), fieldNames(versioned),
        "a versioned, grouped service has the fields Dubbo writes");
    assertEquals("tri", versioned.get("protocol").asText());
    assertEquals(DubboCapture.SERVICE, versioned.get("path").asText());
    assertEquals(0, versioned.get("port").asInt(), "each instance's own port");
    JsonNode params = versioned.get("params");
    assertEquals("hello,add", params.get("methods").asText());
    assertEquals("hessian2,fastjson2", params.get("prefer.serialization").asText(), "Dubbo has no jackson");
    assertEquals("hessian2", params.get("serialization").asText());
    assertEquals("1.0.0", params.get("version").asText());
    assertEquals("g1", params.get("group").asText());
    JsonNode plain = written.get("services").get("triple.demo.Greeter:tri");
    assertFalse(plain.has("version") || plain.has("group"), "absent when empty, as Dubbo writes them");
    assertFalse(plain.get("params").has("prefer.serialization"), "Dubbo has no name for protobuf");
    assertFalse(written.get("services").get("shop.Orders:tri").get("params").has("prefer.serialization"),
        "nor any for jackson");

    MetadataInfo readBack = DubboFormat.decodeMetadata("triple-app", metadata.revision(),
        DubboFormat.encodeMetadata(metadata));
    assertEquals(metadata.services(), readBack.services(), "Triple reads back what it wrote, serialization included");
  }

  @Test
  void matchKeysAreDubbos() {
    assertEquals("org.example.Greeter:tri", DubboFormat.matchKey(DubboCapture.SERVICE, "", "", "tri"));
    assertEquals("g1/org.example.Greeter:1.0.0:tri", DubboFormat.matchKey(DubboCapture.SERVICE, "g1", "1.0.0", "tri"));
    assertEquals("g1/org.example.Greeter:tri", DubboFormat.matchKey(DubboCapture.SERVICE, "g1", "", "tri"));
  }

  @Test
  void malformedInstancesAreRefusedSayingWhy() {
    String good = DubboCapture.instance(DubboCapture.REMOTE).data();
    assertMalformed("not JSON", "{\"name\":");
    assertMalformed("not a JSON object", "[1,2]");
    assertMalformed("an instance of 'capture-remote' under other-app", good, "other-app");
    assertMalformed("port is not an integer", good.replace("\"port\":50062", "\"port\":\"x\""));
    assertMalformed("no payload object", good.replace("\"payload\"", "\"payloadz\""));
    assertMalformed("no metadata revision (dubbo.metadata.revision)",
        good.replace("\"dubbo.metadata.revision\"", "\"dubbo.metadata.revisionz\""));
    assertMalformed("no metadata revision", good.replace("e6958f43da5883a84412057d2d6e60fd", "0"));
    assertMalformed("dubbo.endpoints is not JSON", good.replace("[{\\\"port\\\":50062", "[{\\\"port\\\":"));
    assertMalformed("weight is not an integer",
        good.replace("\"meta-v\"", "\"weight\":\"heavy\",\"meta-v\""));
  }

  private static void assertMalformed(String reason, String json) {
    assertMalformed(reason, json, DubboCapture.REMOTE);
  }

  private static void assertMalformed(String reason, String json, String application) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DubboFormat.decodeInstance(application, "127.0.0.1:50062", json.getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains(reason), "'" + e.getMessage() + "' says " + reason);
  }

  @Test
  void malformedReportsAreRefusedSayingWhy() {
    DubboCapture.Znode report = DubboCapture.report(DubboCapture.REMOTE);
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> DubboFormat.decodeMetadata(DubboCapture.REMOTE, "feedface", report.bytes()));
    assertTrue(other.getMessage().contains("revision 'e6958f43da5883a84412057d2d6e60fd', not of feedface"),
        other.getMessage());
    IllegalArgumentException noServices = assertThrows(IllegalArgumentException.class,
        () -> DubboFormat.decodeMetadata(DubboCapture.REMOTE, report.name(),
            "{\"app\":\"capture-remote\"}".getBytes(StandardCharsets.UTF_8)));
    assertEquals("no services object", noServices.getMessage());
  }

  private static MetadataInfoV2 parseV2(String json) throws Exception {
    MetadataInfoV2.Builder builder = MetadataInfoV2.newBuilder();
    JsonFormat.parser().merge(json, builder);
    return builder.build();
  }

  private static List<DubboService> services(MetadataInfoV2 answer) {
    List<DubboService> services = new ArrayList<>();
    answer.getServicesMap().values().forEach(s -> services.add(new DubboService(s.getName(), s.getGroup(),
        s.getVersion(), s.getProtocol(), s.getPort(), s.getPath(), s.getParamsMap())));
    return services;
  }

  private static TreeSet<String> fieldNames(JsonNode node) {
    TreeSet<String> names = new TreeSet<>();
    Iterator<String> it = node.fieldNames();
    it.forEachRemaining(names::add);
    return names;
  }
}
