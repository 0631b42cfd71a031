package io.triplerpc.internal.rest;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Sets fields of a request from the text of a path variable or a query parameter, as grpc-gateway does:
 * a field path of names ({@code book.author.name}, each the proto or the JSON name), scalars from their
 * text (enums by name or number, bytes as base64), repeated fields from each value, well-known types
 * from their usual text forms ({@code Timestamp} RFC 3339, {@code Duration} {@code 1.5s}, wrappers, a
 * {@code FieldMask} as {@code a,b.c}). Stateless.
 */
final class FieldValues {

  private FieldValues() {}

  /**
   * The fields {@code path} names from {@code type} on, or null if one is unknown or a later name
   * follows a field that is not a singular message.
   */
  static List<FieldDescriptor> resolve(Descriptor type, String path) {
    List<FieldDescriptor> fields = new ArrayList<>();
    Descriptor at = type;
    for (String name : path.split("\\.", -1)) {
      if (at == null) {
        return null;
      }
      FieldDescriptor field = at.findFieldByName(name);
      if (field == null) {
        for (FieldDescriptor candidate : at.getFields()) {
          if (candidate.getJsonName().equals(name)) {
            field = candidate;
            break;
          }
        }
      }
      if (field == null) {
        return null;
      }
      fields.add(field);
      at = field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !field.isRepeated() ? field.getMessageType() : null;
    }
    return fields;
  }

  /**
   * Sets the field at the end of {@code fields} in {@code message} from {@code values} (one for a
   * singular field; a map takes a key and a value).
   *
   * @throws IllegalArgumentException naming {@code parameter}, if a value does not parse or does not fit
   */
  static void set(Message.Builder message, List<FieldDescriptor> fields, List<String> values, String parameter) {
    Message.Builder at = message;
    for (int i = 0; i < fields.size() - 1; i++) {
      FieldDescriptor field = fields.get(i);
      checkOneof(at, field, parameter);
      at = at.getFieldBuilder(field);
    }
    FieldDescriptor field = fields.get(fields.size() - 1);
    checkOneof(at, field, parameter);
    if (field.isMapField()) {
      if (values.size() != 2) {
        throw new IllegalArgumentException("parameter " + parameter + ": a map entry takes a key and one value");
      }
      Descriptor entryType = field.getMessageType();
      FieldDescriptor keyField = entryType.findFieldByNumber(1);
      FieldDescriptor valueField = entryType.findFieldByNumber(2);
      Message.Builder entry = DynamicMessage.newBuilder(entryType);
      entry.setField(keyField, parse(keyField, values.get(0), parameter));
      entry.setField(valueField, parse(valueField, values.get(1), parameter));
      Message.Builder typedEntry = at.newBuilderForField(field);
      try {
        typedEntry.mergeFrom(entry.build().toByteString());
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalArgumentException("parameter " + parameter + ": " + e.getMessage(), e);
      }
      at.addRepeatedField(field, typedEntry.build());
    } else if (field.isRepeated()) {
      for (String value : values) {
        at.addRepeatedField(field, parse(field, value, parameter, at));
      }
    } else {
      if (values.size() > 1) {
        throw new IllegalArgumentException("parameter " + parameter + " takes one value, not " + values.size());
      }
      at.setField(field, parse(field, values.get(0), parameter, at));
    }
  }

  /** A oneof takes one of its fields: another one set already is an error, as in grpc-gateway. */
  private static void checkOneof(Message.Builder message, FieldDescriptor field, String parameter) {
    OneofDescriptor oneof = field.getRealContainingOneof();
    if (oneof == null) {
      return;
    }
    FieldDescriptor set = message.getOneofFieldDescriptor(oneof);
    if (set != null && (set != field || field.getJavaType() != FieldDescriptor.JavaType.MESSAGE)) {
      throw new IllegalArgumentException("parameter " + parameter + ": field already set for oneof " + oneof.getName());
    }
  }

  private static Object parse(FieldDescriptor field, String text, String parameter, Message.Builder owner) {
    if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
      Message.Builder builder = owner.newBuilderForField(field);
      wellKnown(builder, text, parameter);
      return builder.build();
    }
    return parse(field, text, parameter);
  }

  private static Object parse(FieldDescriptor field, String text, String parameter) {
    try {
      switch (field.getType()) {
        case BOOL:
          return parseBool(text);
        case INT32:
        case SINT32:
        case SFIXED32:
          return Integer.parseInt(text);
        case INT64:
        case SINT64:
        case SFIXED64:
          return Long.parseLong(text);
        case UINT32:
        case FIXED32:
          return (int) unsigned(text, 0xFFFF_FFFFL);
        case UINT64:
        case FIXED64:
          return Long.parseUnsignedLong(text);
        case FLOAT:
          return Float.parseFloat(number(text));
        case DOUBLE:
          return Double.parseDouble(number(text));
        case STRING:
          return text;
        case BYTES:
          return com.google.protobuf.ByteString.copyFrom(base64(text));
        case ENUM:
          return enumValue(field, text);
        default:
          throw new IllegalArgumentException("unsupported field type " + field.getType());
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("parameter " + parameter + ": " + reason(e, text), e);
    }
  }

  private static String reason(IllegalArgumentException e, String text) {
    return e instanceof NumberFormatException ? "\"" + text + "\" is not a number of its type" : e.getMessage();
  }

  /** Go's strconv.ParseBool, which grpc-gateway uses. */
  private static boolean parseBool(String text) {
    switch (text) {
      case "1": case "t": case "T": case "TRUE": case "true": case "True":
        return true;
      case "0": case "f": case "F": case "FALSE": case "false": case "False":
        return false;
      default:
        throw new IllegalArgumentException("\"" + text + "\" is not a bool");
    }
  }

  private static long unsigned(String text, long max) {
    long value = Long.parseLong(text);
    if (value < 0 || value > max) {
      throw new NumberFormatException(text);
    }
    return value;
  }

  /** Java parses "NaN", "Infinity" and hex floats; Go's ParseFloat takes "nan", "inf" and decimal. */
  private static String number(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    switch (lower) {
      case "nan":
        return "NaN";
      case "inf": case "+inf": case "infinity": case "+infinity":
        return "Infinity";
      case "-inf": case "-infinity":
        return "-Infinity";
      default:
        if (lower.startsWith("0x") || lower.endsWith("d") || lower.endsWith("f")) {
          throw new NumberFormatException(text);
        }
        return text;
    }
  }

  /** Standard base64, else the URL-safe alphabet, padded or not. */
  private static byte[] base64(String text) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException standard) {
      return Base64.getUrlDecoder().decode(text);
    }
  }

  private static EnumValueDescriptor enumValue(FieldDescriptor field, String text) {
    EnumValueDescriptor value = field.getEnumType().findValueByName(text);
    if (value == null) {
      try {
        value = field.getEnumType().findValueByNumber(Integer.parseInt(text));
      } catch (NumberFormatException e) {
        value = null;
      }
    }
    if (value == null) {
      throw new IllegalArgumentException("\"" + text + "\" is not a value of " + field.getEnumType().getFullName());
    }
    return value;
  }

  /** The well-known message types a path or query value may hold, from their text forms. */
  private static void wellKnown(Message.Builder builder, String text, String parameter) {
    Descriptor type = builder.getDescriptorForType();
    String name = type.getFullName();
    try {
      switch (name) {
        case "google.protobuf.Timestamp":
          builder.mergeFrom(Timestamps.parse(text).toByteString());
          return;
        case "google.protobuf.Duration":
          builder.mergeFrom(Durations.parse(goDuration(text)).toByteString());
          return;
        case "google.protobuf.FieldMask":
          for (String path : text.split(",", -1)) {
            builder.addRepeatedField(type.findFieldByName("paths"), path);
          }
          return;
        case "google.protobuf.DoubleValue":
        case "google.protobuf.FloatValue":
        case "google.protobuf.Int64Value":
        case "google.protobuf.UInt64Value":
        case "google.protobuf.Int32Value":
        case "google.protobuf.UInt32Value":
        case "google.protobuf.BoolValue":
        case "google.protobuf.StringValue":
        case "google.protobuf.BytesValue":
          FieldDescriptor value = type.findFieldByName("value");
          builder.setField(value, parse(value, text, parameter));
          return;
        case "google.protobuf.Value":
        case "google.protobuf.Struct":
          JsonFormat.parser().merge(text, builder);
          return;
        default:
          throw new IllegalArgumentException("parameter " + parameter + ": a value of " + name
              + " cannot come from a path or query parameter");
      }
    } catch (ParseException | InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("parameter " + parameter + ": " + e.getMessage(), e);
    }
  }

  /**
   * A duration in Go's form ({@code 1h2m3.5s}, {@code 300ms}, what grpc-gateway parses) as protobuf's
   * seconds form ({@code 3723.5s}); protobuf's own form passes unchanged.
   */
  static String goDuration(String text) {
    if (text.matches("-?\\d+(\\.\\d+)?s")) {
      return text;
    }
    java.util.regex.Matcher part = java.util.regex.Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)")
        .matcher(text);
    boolean negative = text.startsWith("-");
    int at = negative || text.startsWith("+") ? 1 : 0;
    if (at == text.length()) {
      throw new IllegalArgumentException("\"" + text + "\" is not a duration");
    }
    java.math.BigDecimal nanos = java.math.BigDecimal.ZERO;
    while (at < text.length()) {
      if (!part.find(at) || part.start() != at) {
        throw new IllegalArgumentException("\"" + text + "\" is not a duration");
      }
      long unit = switch (part.group(2)) {
        case "ns" -> 1L;
        case "us", "µs" -> 1_000L;
        case "ms" -> 1_000_000L;
        case "s" -> 1_000_000_000L;
        case "m" -> 60_000_000_000L;
        default -> 3_600_000_000_000L;
      };
      nanos = nanos.add(new java.math.BigDecimal(part.group(1)).multiply(java.math.BigDecimal.valueOf(unit)));
      at = part.end();
    }
    java.math.BigDecimal seconds = nanos.movePointLeft(9).stripTrailingZeros();
    return (negative ? "-" : "") + seconds.toPlainString() + "s";
  }
}
