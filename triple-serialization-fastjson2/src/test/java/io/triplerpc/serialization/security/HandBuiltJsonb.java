package io.triplerpc.serialization.security;

import com.alibaba.fastjson2.JSONWriter;
import java.util.Map;
import java.util.function.Consumer;

/**
 * fastjson2 JSONB as an attacker writes it, naming classes by string with fastjson2's own writer (so no class
 * named here is ever loaded by the test), each value framed as Dubbo frames it: a 4-byte big-endian length,
 * then the JSONB.
 */
final class HandBuiltJsonb {

  private HandBuiltJsonb() {}

  /** {@code {"@type": className, "command": command}}. */
  static byte[] object(String className, String command) {
    return framed(writer -> typed(writer, className, Map.of("command", command)));
  }

  /** An object of {@code className} with string fields. */
  static byte[] objectWithFields(String className, Map<String, String> fields) {
    return framed(writer -> typed(writer, className, fields));
  }

  /** An {@link Envelope} whose {@code attachment} (declared {@code Object}) is a {@code className}. */
  static byte[] envelopeAttaching(String className) {
    return framed(writer -> {
      writer.writeTypeName(Envelope.class.getName());
      writer.startObject();
      writer.writeName("to");
      writer.writeString("bob");
      writer.writeName("attachment");
      typed(writer, className, Map.of("command", "touch /tmp/pwned"));
      writer.endObject();
    });
  }

  /** A list whose second element is a {@code className}. */
  static byte[] listHolding(String className) {
    return framed(writer -> {
      writer.startArray(2);
      writer.writeString("harmless");
      typed(writer, className, Map.of("command", "x"));
      writer.endArray();
    });
  }

  /** A list whose one element is a {@code className}. */
  static byte[] listOf(String className) {
    return framed(writer -> {
      writer.startArray(1);
      typed(writer, className, Map.of("name", "Rex"));
      writer.endArray();
    });
  }

  /** An {@code Object[]}, as fastjson2 names it, holding a {@code className}. */
  static byte[] arrayOf(String className) {
    return framed(writer -> {
      writer.writeTypeName("[O");
      writer.startArray(1);
      typed(writer, className, Map.of("command", "x"));
      writer.endArray();
    });
  }

  /** A map whose value under {@code "k"} is a {@code className}. */
  static byte[] mapHolding(String className) {
    return framed(writer -> {
      writer.startObject();
      writer.writeName("k");
      typed(writer, className, Map.of("command", "x"));
      writer.endObject();
    });
  }

  /** A {@code java.lang.Class} value naming {@code className}. */
  static byte[] classNaming(String className) {
    return framed(writer -> {
      writer.writeTypeName("java.lang.Class");
      writer.writeString(className);
    });
  }

  private static void typed(JSONWriter writer, String className, Map<String, String> fields) {
    writer.writeTypeName(className);
    writer.startObject();
    for (Map.Entry<String, String> field : fields.entrySet()) {
      writer.writeName(field.getKey());
      writer.writeString(field.getValue());
    }
    writer.endObject();
  }

  /** The JSONB {@code body} writes, after its length. */
  static byte[] framed(Consumer<JSONWriter> body) {
    try (JSONWriter writer = JSONWriter.ofJSONB()) {
      body.accept(writer);
      return frame(writer.getBytes());
    }
  }

  /** {@code jsonb} after its 4-byte big-endian length. */
  static byte[] frame(byte[] jsonb) {
    byte[] framed = new byte[jsonb.length + 4];
    framed[0] = (byte) (jsonb.length >>> 24);
    framed[1] = (byte) (jsonb.length >>> 16);
    framed[2] = (byte) (jsonb.length >>> 8);
    framed[3] = (byte) jsonb.length;
    System.arraycopy(jsonb, 0, framed, 4, jsonb.length);
    return framed;
  }
}
