package io.triplerpc.registry.zookeeper;

import static io.triplerpc.registry.zookeeper.JsonFields.JSON;
import static io.triplerpc.registry.zookeeper.JsonFields.integer;
import static io.triplerpc.registry.zookeeper.JsonFields.optionalText;
import static io.triplerpc.registry.zookeeper.JsonFields.text;
import static io.triplerpc.registry.zookeeper.JsonFields.write;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON Apache Dubbo 3.3 keeps in ZooKeeper, read and written as Dubbo's own classes do (the
 * shapes were captured from a Dubbo 3.3.6 provider; see {@code src/test/resources/dubbo-3.3.6-znodes.txt}):
 *
 * <ul>
 *   <li>an instance znode: Curator x-discovery's {@code ServiceInstance} (Jackson) whose payload is an
 *       {@code org.apache.dubbo.registry.zookeeper.ZookeeperInstance} ({@code @class} names it) holding
 *       Dubbo's instance metadata, a map of strings: {@value #REVISION}, {@value #STORAGE_TYPE},
 *       {@value #ENDPOINTS} (a JSON array in a string), and for local metadata
 *       {@value #METADATA_SERVICE_URL_PARAMS} and {@value #METADATA_SERVICE_VERSION};
 *   <li>a metadata report: Dubbo's {@code MetadataInfo} ({@code app}, {@code revision}, {@code services}
 *       by match key, each with {@code name}, {@code group}, {@code version}, {@code protocol},
 *       {@code port}, {@code path}, {@code params}).
 * </ul>
 *
 * <p>Only services over Triple ({@value #TRIPLE_PROTOCOL}) become Triple services; a Dubbo
 * application's services on other protocols are left out. Immutable.
 */
final class DubboFormat {

  /** The Java class of Dubbo's instance payload; Curator's Jackson reads the payload as it. */
  static final String ZOOKEEPER_INSTANCE_CLASS = "org.apache.dubbo.registry.zookeeper.ZookeeperInstance";
  /** Instance metadata: the revision of the instance's metadata. */
  static final String REVISION = "dubbo.metadata.revision";
  /** Instance metadata: where consumers find the metadata, {@value #LOCAL} or {@value #REMOTE}. */
  static final String STORAGE_TYPE = "dubbo.metadata.storage-type";
  /** Instance metadata: {@code [{"port":50051,"protocol":"tri"}]}, each protocol's port. */
  static final String ENDPOINTS = "dubbo.endpoints";
  /** Instance metadata: the protocol and port of the instance's MetadataService, as a JSON object. */
  static final String METADATA_SERVICE_URL_PARAMS = "dubbo.metadata-service.url-params";
  /** Instance metadata: the MetadataService version the instance serves; "2.0.0" is MetadataServiceV2. */
  static final String METADATA_SERVICE_VERSION = "meta-v";
  /**
   * Instance metadata: the instance's weight. Dubbo's consumers look a parameter up in the service's
   * parameters, then the instance's, so their balancers should find it too.
   */
  static final String WEIGHT = "weight";
  /**
   * Instance metadata: when the instance started, in epoch milliseconds, as a string. Dubbo's consumers warm
   * an instance up from it (its {@code warmup}, 10 minutes by default).
   */
  static final String TIMESTAMP = "timestamp";
  /** The metadata is served by the instance's MetadataService (Dubbo's default). */
  static final String LOCAL = "local";
  /** The metadata is in the metadata report, {@code /dubbo/metadata/{application}/{revision}}. */
  static final String REMOTE = "remote";
  /** Dubbo's revision of an instance that exports nothing. */
  static final String EMPTY_REVISION = "0";
  /** Dubbo's name of the Triple protocol. */
  static final String TRIPLE_PROTOCOL = "tri";
  /**
   * A service parameter of Triple's own: the serializations in Triple's form, so that a Triple consumer
   * reads back exactly what a Triple provider serves (Dubbo has no protobuf or jackson, and ignores it).
   */
  static final String TRIPLE_SERIALIZATION = "triple.serialization";


  private DubboFormat() {}

  /** An instance znode as read: the Triple instance and what Dubbo says of its metadata. */
  record DubboInstance(
      ServiceInstance instance, String storageType, String metadataServiceVersion, String metadataServiceProtocol,
      int metadataServicePort) {

    /** Whether the metadata is in the metadata report rather than served by the instance. */
    boolean remoteMetadata() {
      return REMOTE.equals(storageType);
    }
  }

  /** One of Dubbo's {@code ServiceInfo}s, from a metadata report or a MetadataServiceV2 answer. */
  record DubboService(
      String name, String group, String version, String protocol, int port, String path, Map<String, String> params) {}

  /** Dubbo's instance id and znode name: {@code host:port}, the host as it is (no brackets). */
  static String instanceId(String host, int port) {
    return host + ':' + port;
  }

  /**
   * The znode of a Triple instance as Dubbo writes its own: the metadata is in the report
   * ({@value #REMOTE}), the Triple port is the {@value #TRIPLE_PROTOCOL} endpoint and the instance
   * port, other ports are further endpoints, and a weight other than the default is kept.
   */
  static byte[] encodeInstance(ServiceInstance instance, long registrationTimeMillis) {
    String id = instanceId(instance.host(), instance.port());
    ObjectNode root = JSON.createObjectNode();
    root.put("name", instance.application());
    root.put("id", id);
    root.put("address", instance.host());
    root.put("port", instance.port());
    root.putNull("sslPort");
    ObjectNode payload = root.putObject("payload");
    payload.put("@class", ZOOKEEPER_INSTANCE_CLASS);
    payload.put("id", id);
    payload.put("name", instance.application());
    ObjectNode metadata = payload.putObject("metadata");
    ArrayNode endpoints = JSON.createArrayNode();
    endpoints.addObject().put("port", instance.port()).put("protocol", TRIPLE_PROTOCOL);
    instance.extraPorts().forEach((protocol, port) -> endpoints.addObject().put("port", port).put("protocol", protocol));
    metadata.put(ENDPOINTS, new String(write(endpoints), StandardCharsets.UTF_8));
    metadata.put(REVISION, instance.revision());
    metadata.put(STORAGE_TYPE, REMOTE);
    if (instance.weight() != ServiceInstance.DEFAULT_WEIGHT) {
      metadata.put(WEIGHT, Integer.toString(instance.weight()));
    }
    if (instance.startTimeMillis() > 0) {
      metadata.put(TIMESTAMP, Long.toString(instance.startTimeMillis()));
    }
    root.put("registrationTimeUTC", registrationTimeMillis);
    root.put("serviceType", "DYNAMIC");
    root.putNull("uriSpec");
    return write(root);
  }

  /**
   * The instance of {@code application} in the znode {@code name}: its host, its Triple port (the
   * {@value #TRIPLE_PROTOCOL} endpoint, else the instance port), its revision and weight; the other
   * endpoints become extra ports.
   *
   * @throws IllegalArgumentException if the payload is not such an instance; the message says why
   */
  static DubboInstance decodeInstance(String application, String name, byte[] payload) {
    JsonNode root = read(payload);
    String instanceName = text(root, "name");
    if (!instanceName.equals(application)) {
      throw new IllegalArgumentException("an instance of '" + instanceName + "' under " + application);
    }
    String host = text(root, "address");
    int port = integer(root, "port", 1, 65535);
    JsonNode body = root.get("payload");
    if (body == null || !body.isObject()) {
      throw new IllegalArgumentException("no payload object (Dubbo's ZookeeperInstance)");
    }
    Map<String, String> metadata = strings(body.get("metadata"), "payload.metadata");
    String revision = metadata.get(REVISION);
    if (revision == null || revision.isEmpty() || revision.equals(EMPTY_REVISION)) {
      throw new IllegalArgumentException("no metadata revision (" + REVISION + ")");
    }
    Map<String, Integer> endpoints = endpoints(metadata.get(ENDPOINTS));
    Integer triplePort = endpoints.remove(TRIPLE_PROTOCOL);
    int weight = ServiceInstance.DEFAULT_WEIGHT;
    String weightText = metadata.get(WEIGHT);
    if (weightText != null) {
      try {
        weight = Integer.parseInt(weightText.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(WEIGHT + " is not an integer: '" + weightText + "'");
      }
      if (weight < 0) {
        throw new IllegalArgumentException(WEIGHT + " is negative: " + weight);
      }
    }
    ServiceInstance instance = ServiceInstance.of(application, host, triplePort != null ? triplePort : port, revision)
        .withWeight(weight)
        .withExtraPorts(endpoints)
        .withStartTime(startTime(metadata.get(TIMESTAMP)));
    String storageType = metadata.getOrDefault(STORAGE_TYPE, LOCAL);
    String protocol = null;
    int metadataPort = 0;
    String urlParams = metadata.get(METADATA_SERVICE_URL_PARAMS);
    if (urlParams != null && !urlParams.isEmpty()) {
      Map<String, String> params = strings(read(urlParams.getBytes(StandardCharsets.UTF_8)),
          METADATA_SERVICE_URL_PARAMS);
      protocol = params.get("protocol");
      String portText = params.get("port");
      if (portText != null) {
        metadataPort = parsePort(portText, METADATA_SERVICE_URL_PARAMS);
      }
    }
    return new DubboInstance(instance, storageType, metadata.get(METADATA_SERVICE_VERSION), protocol, metadataPort);
  }

  /**
   * {@value #TIMESTAMP} in epoch milliseconds; 0 (unknown: no warm-up) if absent or not a time, as Dubbo's
   * consumers then warm up nothing either rather than refusing the instance.
   */
  private static long startTime(String text) {
    if (text == null) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(text.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** {@value #ENDPOINTS}: protocol to port, in order; empty if absent. */
  private static Map<String, Integer> endpoints(String text) {
    Map<String, Integer> ports = new LinkedHashMap<>();
    if (text == null || text.isEmpty()) {
      return ports;
    }
    JsonNode array;
    try {
      array = JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException(ENDPOINTS + " is not JSON: '" + text + "'");
    }
    if (array == null || !array.isArray()) {
      throw new IllegalArgumentException(ENDPOINTS + " is not a JSON array: '" + text + "'");
    }
    for (JsonNode endpoint : array) {
      if (!endpoint.isObject()) {
        throw new IllegalArgumentException(ENDPOINTS + " holds a non-object: '" + text + "'");
      }
      ports.putIfAbsent(text(endpoint, "protocol"), integer(endpoint, "port", 1, 65535));
    }
    return ports;
  }

  /**
   * Dubbo's {@code MetadataInfo} of a Triple revision: each service under its match key, over
   * {@value #TRIPLE_PROTOCOL}, with port 0 (instances of one revision may listen on different ports, so
   * Dubbo's consumers take each instance's own) and the parameters Dubbo's consumers read.
   */
  static byte[] encodeMetadata(MetadataInfo metadata) {
    ObjectNode root = JSON.createObjectNode();
    root.put("app", metadata.application());
    root.put("revision", metadata.revision());
    ObjectNode services = root.putObject("services");
    for (ServerInfo.Service service : metadata.services()) {
      ObjectNode entry = services.putObject(matchKey(service.name(), service.group(), service.version(),
          TRIPLE_PROTOCOL));
      if (!service.group().isEmpty()) {
        entry.put("group", service.group());
      }
      entry.put("name", service.name());
      ObjectNode params = entry.putObject("params");
      params.put("side", "provider");
      params.put("application", metadata.application());
      params.put("interface", service.name());
      params.put("methods", String.join(",", service.methods()));
      if (!service.version().isEmpty()) {
        params.put("version", service.version());
      }
      if (!service.group().isEmpty()) {
        params.put("group", service.group());
      }
      List<String> serializations = dubboSerializations(service.serialization());
      if (!serializations.isEmpty()) {
        params.put("serialization", serializations.get(0));
        params.put("prefer.serialization", String.join(",", serializations));
      }
      params.put(TRIPLE_SERIALIZATION, service.serialization());
      params.put("generic", "false");
      entry.put("path", service.name());
      entry.put("port", 0);
      entry.put("protocol", TRIPLE_PROTOCOL);
      if (!service.version().isEmpty()) {
        entry.put("version", service.version());
      }
    }
    return write(root);
  }

  /**
   * The metadata of {@code application} at {@code revision} in a metadata report znode.
   *
   * @throws IllegalArgumentException if the payload is not Dubbo's MetadataInfo of that application and
   *     revision; the message says why
   */
  static MetadataInfo decodeMetadata(String application, String revision, byte[] payload) {
    JsonNode root = read(payload);
    String app = optionalText(root, "app");
    if (!app.isEmpty() && !app.equals(application)) {
      throw new IllegalArgumentException("the metadata of '" + app + "', not of " + application);
    }
    String named = optionalText(root, "revision");
    if (!named.isEmpty() && !named.equals(revision)) {
      throw new IllegalArgumentException("the metadata of revision '" + named + "', not of " + revision);
    }
    JsonNode services = root.get("services");
    if (services == null || !services.isObject()) {
      throw new IllegalArgumentException("no services object");
    }
    List<DubboService> list = new ArrayList<>(services.size());
    for (Map.Entry<String, JsonNode> entry : services.properties()) {
      JsonNode service = entry.getValue();
      if (!service.isObject()) {
        throw new IllegalArgumentException("service " + entry.getKey() + " is not an object");
      }
      JsonNode port = service.get("port");
      list.add(new DubboService(
          optionalText(service, "name"),
          optionalText(service, "group"),
          optionalText(service, "version"),
          optionalText(service, "protocol"),
          port == null || !port.canConvertToInt() ? -1 : port.asInt(),
          optionalText(service, "path"),
          strings(service.get("params"), "params of " + entry.getKey())));
    }
    return toTriple(application, revision, list);
  }

  /**
   * Triple's metadata of Dubbo's services: those over {@value #TRIPLE_PROTOCOL}, each named by its
   * path (the service name on the wire), with its methods, version, group and serialization.
   *
   * @throws IllegalArgumentException if a Triple service has neither name nor path
   */
  static MetadataInfo toTriple(String application, String revision, Collection<DubboService> services) {
    List<ServerInfo.Service> triple = new ArrayList<>(services.size());
    for (DubboService service : services) {
      if (!TRIPLE_PROTOCOL.equals(service.protocol())) {
        continue;
      }
      Map<String, String> params = service.params();
      String name = !service.path().isEmpty() ? service.path() : service.name();
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a service without name or path");
      }
      String version = !service.version().isEmpty() ? service.version() : params.getOrDefault("version", "");
      String group = !service.group().isEmpty() ? service.group() : params.getOrDefault("group", "");
      triple.add(new ServerInfo.Service(name, split(params.get("methods")), tripleSerialization(params), version,
          group));
    }
    return MetadataInfo.named(application, revision, triple);
  }

  /** Dubbo's match key: {@code [group/]name[:version][:protocol]}, as its MetadataInfo keys services. */
  static String matchKey(String name, String group, String version, String protocol) {
    StringBuilder key = new StringBuilder();
    if (group != null && !group.isEmpty()) {
      key.append(group).append('/');
    }
    key.append(name);
    if (version != null && !version.isEmpty()) {
      key.append(':').append(version);
    }
    if (protocol != null && !protocol.isEmpty()) {
      key.append(':').append(protocol);
    }
    return key.toString();
  }

  /**
   * Of the serializations a Triple service reads (comma-separated, its own first), those Dubbo 3.3 has,
   * in order: what Dubbo's consumers may choose from ({@code prefer.serialization}). Empty for protobuf
   * services (protobuf is not one of Dubbo's serializations; its messages travel as protobuf anyway)
   * and for Triple's jackson alone.
   */
  static List<String> dubboSerializations(String triple) {
    List<String> dubbo = new ArrayList<>();
    for (String name : split(triple)) {
      if ((name.equals("hessian2") || name.equals("fastjson2")) && !dubbo.contains(name)) {
        dubbo.add(name);
      }
    }
    return dubbo;
  }

  /**
   * The serializations a Dubbo service reads, in Triple's form (comma-separated, most preferred first,
   * as a Triple consumer chooses from): Triple's own parameter if a Triple provider wrote it, else
   * Dubbo's {@code prefer.serialization}, else its {@code serialization}, else hessian2 (Dubbo's default).
   */
  private static String tripleSerialization(Map<String, String> params) {
    String own = params.get(TRIPLE_SERIALIZATION);
    if (own != null && !own.isEmpty()) {
      return own;
    }
    List<String> preferred = split(params.get("prefer.serialization"));
    if (preferred.isEmpty()) {
      preferred = split(params.get("serialization"));
    }
    if (preferred.isEmpty()) {
      return "hessian2";
    }
    List<String> names = new ArrayList<>(preferred.size());
    for (String name : preferred) {
      names.add(name.equals("protobuf") ? "proto" : name);
    }
    return String.join(",", names);
  }

  /** A comma-separated list, trimmed, empty items left out, as Dubbo splits its parameters. */
  static List<String> split(String list) {
    if (list == null || list.isEmpty()) {
      return List.of();
    }
    List<String> items = new ArrayList<>();
    for (String item : list.split(",")) {
      String trimmed = item.trim();
      if (!trimmed.isEmpty()) {
        items.add(trimmed);
      }
    }
    return items;
  }

  private static JsonNode read(byte[] payload) {
    if (payload == null || payload.length == 0) {
      throw new IllegalArgumentException("empty payload");
    }
    JsonNode node;
    try {
      node = JSON.readTree(payload);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    return node;
  }

  /** A JSON object of scalars as strings (Dubbo's maps are of strings); empty if absent. */
  private static Map<String, String> strings(JsonNode node, String what) {
    Map<String, String> map = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      return map;
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException(what + " is not an object");
    }
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      JsonNode value = entry.getValue();
      if (value.isNull()) {
        continue;
      }
      if (!value.isValueNode()) {
        throw new IllegalArgumentException(what + "." + entry.getKey() + " is not a string");
      }
      map.put(entry.getKey(), value.asText());
    }
    return map;
  }

  private static int parsePort(String text, String where) {
    try {
      int port = Integer.parseInt(text.trim());
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException("bad port '" + text + "' in " + where);
  }
}
