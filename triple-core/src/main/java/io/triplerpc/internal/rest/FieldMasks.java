package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The field mask a PATCH body implies, as grpc-gateway derives it: each field the JSON sets, by its
 * proto name, a nested message's fields below it ({@code author.name}), a repeated or map field, an
 * {@code Any} or an empty object as a whole, a {@code Struct}'s or {@code Value}'s keys blindly.
 */
final class FieldMasks {

  private FieldMasks() {}

  /**
   * Adds the paths of {@code json}, a value of {@code type}, under {@code prefix} ("" at the top).
   *
   * @throws IllegalArgumentException if the JSON names a field the type does not have
   */
  static void collect(JsonNode json, Descriptor type, String prefix, List<String> paths) {
    if (!json.isObject() || json.isEmpty()) {
      if (!prefix.isEmpty()) {
        paths.add(prefix);
      }
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> members = json.fields(); members.hasNext(); ) {
      Map.Entry<String, JsonNode> member = members.next();
      FieldDescriptor field = type == null ? null : type.findFieldByName(member.getKey());
      if (field == null && type != null) {
        for (FieldDescriptor candidate : type.getFields()) {
          if (candidate.getJsonName().equals(member.getKey())) {
            field = candidate;
            break;
          }
        }
      }
      if (field == null) {
        throw new IllegalArgumentException("could not find field \"" + member.getKey() + "\" in "
            + (type == null ? "the request" : "\"" + type.getFullName() + "\""));
      }
      String path = prefix.isEmpty() ? field.getName() : prefix + "." + field.getName();
      String messageType = field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
          ? field.getMessageType().getFullName() : "";
      if (field.isRepeated() || field.isMapField() || messageType.equals("google.protobuf.Any")) {
        paths.add(path);
      } else if (messageType.equals("google.protobuf.Struct") || messageType.equals("google.protobuf.Value")) {
        blindly(member.getValue(), path, paths);
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        collect(member.getValue(), field.getMessageType(), path, paths);
      } else {
        paths.add(path);
      }
    }
  }

  /** Every leaf under a JSON object whose keys no descriptor describes. */
  private static void blindly(JsonNode json, String prefix, List<String> paths) {
    if (!json.isObject()) {
      paths.add(prefix);
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> members = json.fields(); members.hasNext(); ) {
      Map.Entry<String, JsonNode> member = members.next();
      blindly(member.getValue(), prefix + "." + member.getKey(), paths);
    }
  }
}
