package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The JSON Schemas (OpenAPI 3.1's dialect) of the messages and Java types routes use, each named type once
 * under {@code components/schemas} and referred to by {@code $ref}: protobuf messages as their JSON mapping
 * writes them (lowerCamelCase names, 64-bit integers as strings, enums by name, well-known types in their
 * JSON forms), Java classes as Jackson writes them (public fields and getters).
 */
final class OpenApiSchemas {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Map<String, ObjectNode> named = new TreeMap<>();
  /** {@code .proto} comments by full name: a message's, enum's or field's describes its schema. */
  private final Map<String, String> comments;

  OpenApiSchemas(Map<String, String> comments) {
    this.comments = comments;
  }

  /** The schemas named so far, for {@code components/schemas}. */
  ObjectNode components() {
    ObjectNode components = NODES.objectNode();
    named.forEach(components::set);
    return components;
  }

  /** The schema of a protobuf message: a reference to it, its definition added once. */
  ObjectNode message(Descriptor type) {
    ObjectNode wellKnown = wellKnown(type.getFullName());
    if (wellKnown != null) {
      return wellKnown;
    }
    String name = type.getFullName();
    if (!named.containsKey(name)) {
      ObjectNode schema = NODES.objectNode().put("type", "object");
      named.put(name, schema);
      describe(schema, name);
      ObjectNode properties = schema.putObject("properties");
      for (FieldDescriptor field : type.getFields()) {
        // Beside a $ref, OpenAPI 3.1 (JSON Schema 2020-12) keeps the description: the field's, not the type's.
        properties.set(field.getJsonName(), describe(field(field), field.getFullName()));
      }
    }
    return ref(name);
  }

  /** The schema of a field's value: its type, an array of it, or an object of a map's values. */
  ObjectNode field(FieldDescriptor field) {
    if (field.isMapField()) {
      ObjectNode map = NODES.objectNode().put("type", "object");
      map.set("additionalProperties", single(field.getMessageType().findFieldByNumber(2)));
      return map;
    }
    if (field.isRepeated()) {
      ObjectNode array = NODES.objectNode().put("type", "array");
      array.set("items", single(field));
      return array;
    }
    return single(field);
  }

  /** The schema of one value of {@code field}'s type, repeated or not. */
  ObjectNode single(FieldDescriptor field) {
    return switch (field.getJavaType()) {
      case INT -> integer(field.getType() == FieldDescriptor.Type.UINT32 || field.getType() == FieldDescriptor.Type.FIXED32
          ? "int64" : "int32");
      case LONG -> NODES.objectNode().put("type", "string").put("format",
          field.getType() == FieldDescriptor.Type.UINT64 || field.getType() == FieldDescriptor.Type.FIXED64
              ? "uint64" : "int64");
      case FLOAT -> NODES.objectNode().put("type", "number").put("format", "float");
      case DOUBLE -> NODES.objectNode().put("type", "number").put("format", "double");
      case BOOLEAN -> NODES.objectNode().put("type", "boolean");
      case STRING -> NODES.objectNode().put("type", "string");
      case BYTE_STRING -> NODES.objectNode().put("type", "string").put("format", "byte");
      case ENUM -> enumeration(field.getEnumType());
      case MESSAGE -> message(field.getMessageType());
    };
  }

  /** The comment on the declaration {@code name} (a field's full name, say); null if it has none. */
  String comment(String name) {
    return comments.get(name);
  }

  /** Puts the comment on {@code name}'s declaration, if any, as {@code schema}'s description. */
  private ObjectNode describe(ObjectNode schema, String name) {
    String comment = comments.get(name);
    if (comment != null) {
      schema.put("description", comment);
    }
    return schema;
  }

  private static ObjectNode integer(String format) {
    return NODES.objectNode().put("type", "integer").put("format", format);
  }

  private ObjectNode enumeration(EnumDescriptor type) {
    String name = type.getFullName();
    if (!named.containsKey(name)) {
      ObjectNode schema = NODES.objectNode().put("type", "string");
      describe(schema, name);
      ArrayNode values = schema.putArray("enum");
      for (EnumValueDescriptor value : type.getValues()) {
        values.add(value.getName());
      }
      named.put(name, schema);
    }
    return ref(name);
  }

  /** The JSON forms protobuf gives its well-known types; null for any other message. */
  private static ObjectNode wellKnown(String fullName) {
    return switch (fullName) {
      case "google.protobuf.Timestamp" -> NODES.objectNode().put("type", "string").put("format", "date-time");
      case "google.protobuf.Duration" -> NODES.objectNode().put("type", "string").put("pattern", "^-?[0-9]+(\\.[0-9]+)?s$");
      case "google.protobuf.FieldMask" -> NODES.objectNode().put("type", "string");
      case "google.protobuf.Empty" -> NODES.objectNode().put("type", "object");
      case "google.protobuf.Struct" -> NODES.objectNode().put("type", "object");
      case "google.protobuf.Value" -> NODES.objectNode();
      case "google.protobuf.ListValue" -> NODES.objectNode().put("type", "array");
      case "google.protobuf.Any" -> {
        ObjectNode any = NODES.objectNode().put("type", "object");
        any.putObject("properties").putObject("@type").put("type", "string");
        any.putArray("required").add("@type");
        yield any;
      }
      case "google.protobuf.BoolValue" -> nullable("boolean", null);
      case "google.protobuf.StringValue" -> nullable("string", null);
      case "google.protobuf.BytesValue" -> nullable("string", "byte");
      case "google.protobuf.Int32Value", "google.protobuf.UInt32Value" -> nullable("integer", "int32");
      case "google.protobuf.Int64Value", "google.protobuf.UInt64Value" -> nullable("string", "int64");
      case "google.protobuf.FloatValue" -> nullable("number", "float");
      case "google.protobuf.DoubleValue" -> nullable("number", "double");
      default -> null;
    };
  }

  private static ObjectNode nullable(String type, String format) {
    ObjectNode schema = NODES.objectNode();
    schema.putArray("type").add(type).add("null");
    if (format != null) {
      schema.put("format", format);
    }
    return schema;
  }

  /** The schema of a Java type as Jackson writes it. */
  ObjectNode java(Type type) {
    if (type instanceof WildcardType wildcard) {
      return java(wildcard.getUpperBounds()[0]);
    }
    if (type instanceof GenericArrayType array) {
      ObjectNode schema = NODES.objectNode().put("type", "array");
      schema.set("items", java(array.getGenericComponentType()));
      return schema;
    }
    Class<?> raw = type instanceof Class<?> c ? c
        : type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c ? c : Object.class;
    Type[] arguments = type instanceof ParameterizedType p ? p.getActualTypeArguments() : new Type[0];
    if (java.util.concurrent.CompletionStage.class.isAssignableFrom(raw)
        || java.util.concurrent.Future.class.isAssignableFrom(raw)) {
      // An asynchronous method's answer is what its future completes with.
      return arguments.length == 1 ? java(arguments[0]) : NODES.objectNode();
    }
    if (raw == Optional.class) {
      return arguments.length == 1 ? java(arguments[0]) : NODES.objectNode();
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return NODES.objectNode().put("type", "boolean");
    }
    if (raw == int.class || raw == Integer.class || raw == short.class || raw == Short.class || raw == byte.class
        || raw == Byte.class) {
      return integer("int32");
    }
    if (raw == long.class || raw == Long.class) {
      return integer("int64");
    }
    if (raw == float.class || raw == Float.class) {
      return NODES.objectNode().put("type", "number").put("format", "float");
    }
    if (raw == double.class || raw == Double.class || Number.class.isAssignableFrom(raw)) {
      return NODES.objectNode().put("type", "number");
    }
    if (raw == byte[].class) {
      return NODES.objectNode().put("type", "string").put("format", "byte");
    }
    if (CharSequence.class.isAssignableFrom(raw) || raw == char.class || raw == Character.class
        || raw == java.util.UUID.class) {
      return NODES.objectNode().put("type", "string");
    }
    if (raw.getName().startsWith("java.time.")) {
      return NODES.objectNode().put("type", "string")
          .put("format", raw == java.time.LocalDate.class ? "date" : "date-time");
    }
    if (raw.isArray() || Collection.class.isAssignableFrom(raw)) {
      ObjectNode schema = NODES.objectNode().put("type", "array");
      schema.set("items", java(raw.isArray() ? raw.getComponentType() : arguments.length == 1 ? arguments[0] : Object.class));
      return schema;
    }
    if (Map.class.isAssignableFrom(raw)) {
      ObjectNode schema = NODES.objectNode().put("type", "object");
      schema.set("additionalProperties", java(arguments.length == 2 ? arguments[1] : Object.class));
      return schema;
    }
    if (raw == void.class || raw == Void.class) {
      return NODES.objectNode().put("type", "null");
    }
    if (raw == Object.class || raw.isInterface() || raw.getName().startsWith("java.")) {
      return NODES.objectNode();
    }
    if (com.google.protobuf.Message.class.isAssignableFrom(raw)) {
      try {
        return message((Descriptor) raw.getMethod("getDescriptor").invoke(null));
      } catch (ReflectiveOperationException e) {
        return NODES.objectNode();
      }
    }
    // A component's name is [A-Za-z0-9.-_]+: a nested class's '$' becomes '.'.
    String name = raw.getName().replace('$', '.');
    if (!named.containsKey(name)) {
      ObjectNode schema = NODES.objectNode();
      named.put(name, schema);
      if (raw.isEnum()) {
        schema.put("type", "string");
        ArrayNode values = schema.putArray("enum");
        for (Object constant : raw.getEnumConstants()) {
          values.add(((Enum<?>) constant).name());
        }
      } else {
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        for (Field field : raw.getFields()) {
          if (!Modifier.isStatic(field.getModifiers())) {
            properties.set(field.getName(), java(field.getGenericType()));
          }
        }
        for (java.lang.reflect.Method getter : raw.getMethods()) {
          String property = property(getter);
          if (property != null && !properties.has(property)) {
            properties.set(property, java(getter.getGenericReturnType()));
          }
        }
      }
    }
    return ref(name);
  }

  /** The property a public getter reads, as Jackson names it; null for any other method. */
  private static String property(java.lang.reflect.Method method) {
    if (Modifier.isStatic(method.getModifiers()) || method.getParameterCount() != 0
        || method.getDeclaringClass() == Object.class) {
      return null;
    }
    String name = method.getName();
    int prefix = name.startsWith("get") && name.length() > 3 ? 3
        : name.startsWith("is") && name.length() > 2 && method.getReturnType() == boolean.class ? 2 : 0;
    if (prefix == 0) {
      return null;
    }
    return Character.toLowerCase(name.charAt(prefix)) + name.substring(prefix + 1);
  }

  private static ObjectNode ref(String name) {
    return NODES.objectNode().put("$ref", "#/components/schemas/" + name);
  }
}
