package io.triplerpc.registry.zookeeper;

import static io.triplerpc.registry.zookeeper.JsonFields.JSON;
import static io.triplerpc.registry.zookeeper.JsonFields.integer;
import static io.triplerpc.registry.zookeeper.JsonFields.optionalText;
import static io.triplerpc.registry.zookeeper.JsonFields.text;
import static io.triplerpc.registry.zookeeper.JsonFields.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the registry looks in ZooKeeper: the paths under one root, and the JSON payloads of instance and
 * metadata znodes. What a path already says (application, host, port, revision) is not repeated in
 * the payload. Immutable.
 */
final class ZnodeFormat {


  /** The root, such as {@code /triple}: absolute, no trailing slash. */
  private final String root;

  ZnodeFormat(String root) {
    this.root = checkRoot(root);
  }

  /**
   * {@code root} if it is a usable root path.
   *
   * @throws IllegalArgumentException if it is not absolute or ends with a slash
   */
  static String checkRoot(String root) {
    if (!root.startsWith("/") || root.endsWith("/") || root.contains("//")) {
      throw new IllegalArgumentException("root path must be absolute, without a trailing slash: " + root);
    }
    return root;
  }

  /** The parent of {@code application}'s instance znodes. */
  String instancesPath(String application) {
    return root + "/instances/" + segment(application, "application");
  }

  /** The ephemeral znode of {@code instance}, named by its address. */
  String instancePath(ServiceInstance instance) {
    return instancesPath(instance.application()) + '/' + segment(instance.address(), "address");
  }

  String metadataPath(String application, String revision) {
    return root + "/metadata/" + segment(application, "application") + '/' + segment(revision, "revision");
  }

  String mappingPath(String serviceName) {
    return root + "/mapping/" + segment(serviceName, "serviceName");
  }

  String mappingPath(String serviceName, String application) {
    return mappingPath(serviceName) + '/' + segment(application, "application");
  }

  /**
   * {@code value} as one znode name.
   *
   * @throws IllegalArgumentException if it is empty, a dot name, or holds a slash or a control character
   */
  static String segment(String value, String what) {
    if (value.isEmpty() || value.indexOf('/') >= 0 || value.equals(".") || value.equals("..")) {
      throw new IllegalArgumentException("Not usable as a ZooKeeper node name (" + what + "): '" + value + "'");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        throw new IllegalArgumentException("Control character in " + what + ": '" + value + "'");
      }
    }
    return value;
  }

  /**
   * {@code {"weight":100,"revision":"...","ports":{"dubbo":20880},"timestamp":1765000000000}}; no ports member
   * when there are none, no timestamp when the start time is unknown.
   */
  static byte[] encodeInstance(ServiceInstance instance) {
    ObjectNode node = JSON.createObjectNode();
    node.put("weight", instance.weight());
    node.put("revision", instance.revision());
    if (instance.startTimeMillis() > 0) {
      node.put("timestamp", instance.startTimeMillis());
    }
    if (!instance.extraPorts().isEmpty()) {
      ObjectNode ports = node.putObject("ports");
      instance.extraPorts().forEach(ports::put);
    }
    return write(node);
  }

  /**
   * The instance of {@code application} in the znode named {@code address} holding {@code payload}.
   *
   * @throws IllegalArgumentException if the name is not {@code host:port} or the payload is not an
   *     instance
   */
  static ServiceInstance decodeInstance(String application, String address, byte[] payload) {
    int colon = address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      throw new IllegalArgumentException("Not host:port: '" + address + "'");
    }
    String host = address.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port = parsePort(address.substring(colon + 1), address);
    JsonNode node = read(payload);
    ServiceInstance instance = ServiceInstance.of(application, host, port, text(node, "revision"))
        .withWeight(integer(node, "weight", 0, Integer.MAX_VALUE));
    JsonNode timestamp = node.get("timestamp");
    if (timestamp != null && !timestamp.isNull()) {
      if (!timestamp.canConvertToLong() || timestamp.asLong() < 0) {
        throw new IllegalArgumentException("timestamp is not a time in epoch milliseconds: " + timestamp);
      }
      instance = instance.withStartTime(timestamp.asLong());
    }
    JsonNode ports = node.get("ports");
    if (ports != null && !ports.isNull()) {
      if (!ports.isObject()) {
        throw new IllegalArgumentException("ports is not an object");
      }
      Map<String, Integer> extraPorts = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> entry : ports.properties()) {
        extraPorts.put(entry.getKey(), integer(ports, entry.getKey(), 1, 65535));
      }
      instance = instance.withExtraPorts(extraPorts);
    }
    if (!instance.address().equals(address)) {
      throw new IllegalArgumentException("Not a canonical host:port: '" + address + "'");
    }
    return instance;
  }

  private static int parsePort(String digits, String address) {
    if (digits.isEmpty() || digits.length() > 5) {
      throw new IllegalArgumentException("Bad port in '" + address + "'");
    }
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
        throw new IllegalArgumentException("Bad port in '" + address + "'");
      }
    }
    int port = Integer.parseInt(digits);
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("Port out of range in '" + address + "'");
    }
    return port;
  }

  /** {@code {"services":[{"name":..,"methods":[..],"serialization":..,"version":..,"group":..}]}}. */
  static byte[] encodeMetadata(MetadataInfo metadata) {
    ObjectNode node = JSON.createObjectNode();
    ArrayNode services = node.putArray("services");
    for (ServerInfo.Service service : metadata.services()) {
      ObjectNode entry = services.addObject();
      entry.put("name", service.name());
      ArrayNode methods = entry.putArray("methods");
      service.methods().forEach(methods::add);
      entry.put("serialization", service.serialization());
      entry.put("version", service.version());
      entry.put("group", service.group());
    }
    return write(node);
  }

  /**
   * The metadata stored under {@code application} and {@code revision}.
   *
   * @throws IllegalArgumentException if the payload is not metadata, or not the metadata of that
   *     revision
   */
  static MetadataInfo decodeMetadata(String application, String revision, byte[] payload) {
    JsonNode services = read(payload).get("services");
    if (services == null || !services.isArray()) {
      throw new IllegalArgumentException("No services array");
    }
    List<ServerInfo.Service> list = new ArrayList<>(services.size());
    for (JsonNode entry : services) {
      JsonNode methods = entry.get("methods");
      if (methods == null || !methods.isArray()) {
        throw new IllegalArgumentException("No methods array");
      }
      List<String> names = new ArrayList<>(methods.size());
      for (JsonNode method : methods) {
        if (!method.isTextual()) {
          throw new IllegalArgumentException("Method name is not a string");
        }
        names.add(method.asText());
      }
      list.add(new ServerInfo.Service(text(entry, "name"), names, text(entry, "serialization"),
          optionalText(entry, "version"), optionalText(entry, "group")));
    }
    return MetadataInfo.restore(application, revision, list);
  }

  private static JsonNode read(byte[] payload) {
    if (payload == null || payload.length == 0) {
      throw new IllegalArgumentException("Empty payload");
    }
    JsonNode node;
    try {
      node = JSON.readTree(payload);
    } catch (IOException e) {
      throw new IllegalArgumentException("Not JSON", e);
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("Not a JSON object");
    }
    return node;
  }
}
