package io.triplerpc.registry.zookeeper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Znode JSON, in both layouts: reads its fields strictly (a wrong type or range says which field, for the
 * warning it ends in) and writes its trees.
 */
final class JsonFields {

  /** Parses and builds every znode's JSON. */
  static final ObjectMapper JSON = new ObjectMapper();

  private JsonFields() {}

  /** The bytes of {@code node}. */
  static byte[] write(JsonNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A JSON tree of strings and numbers always serializes", e);
    }
  }

  /** The non-empty string {@code name}. */
  static String text(JsonNode node, String name) {
    JsonNode value = node.get(name);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new IllegalArgumentException(name + " is not a non-empty string");
    }
    return value.asText();
  }

  /** The string {@code name}, empty when absent or null. */
  static String optionalText(JsonNode node, String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return "";
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException(name + " is not a string");
    }
    return value.asText();
  }

  /** The integer {@code name}, in {@code [min, max]}. */
  static int integer(JsonNode node, String name, int min, int max) {
    JsonNode value = node.get(name);
    if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()
        || value.asInt() < min || value.asInt() > max) {
      throw new IllegalArgumentException(name + " is not an integer in [" + min + ", " + max + "]");
    }
    return value.asInt();
  }
}
