package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The query of a Connect GET ({@code ?connect=v1&encoding=json&base64=1&compression=gzip&message=...}),
 * read as {@code application/x-www-form-urlencoded} is: parameters split at {@code &} only, {@code +} a
 * space, {@code %} and two hex digits one byte, anything else after {@code %} malformed. Of a repeated
 * parameter the first counts. The message stays bytes (it may be binary); the other values are UTF-8.
 * One parser for every parameter, so that the message and the parameters that say how to read it are
 * never read by two different rules.
 */
final class ConnectGetQuery {

  private static final byte[] EMPTY = {};

  /** Each parameter's first value, percent-decoded. */
  private final Map<String, byte[]> values;

  private ConnectGetQuery(Map<String, byte[]> values) {
    this.values = values;
  }

  /**
   * The query of {@code pathAndQuery} (a request's path, query included).
   *
   * @throws IllegalArgumentException if an escape is malformed; the message says which parameter
   */
  static ConnectGetQuery parse(CharSequence pathAndQuery) {
    String raw = pathAndQuery.toString();
    int start = raw.indexOf('?');
    Map<String, byte[]> values = new HashMap<>();
    if (start >= 0) {
      for (String parameter : raw.substring(start + 1).split("&", -1)) {
        int eq = parameter.indexOf('=');
        String name = new String(decode(eq < 0 ? parameter : parameter.substring(0, eq), null),
            StandardCharsets.UTF_8);
        values.putIfAbsent(name, eq < 0 ? EMPTY : decode(parameter.substring(eq + 1), name));
      }
    }
    return new ConnectGetQuery(values);
  }

  /** The value of {@code name} as text, or null if the query has none. */
  String text(String name) {
    byte[] value = values.get(name);
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }

  /**
   * The message: the {@code message} parameter's bytes, base64url-decoded when {@code base64=1}
   * (the standard alphabet's {@code +} and {@code /} read too); empty when there is none.
   *
   * @throws IllegalArgumentException if it is not base64 when it should be
   */
  ByteBuf message() {
    byte[] message = values.getOrDefault("message", EMPTY);
    if ("1".equals(text("base64"))) {
      String text = new String(message, StandardCharsets.ISO_8859_1).replace('+', '-').replace('/', '_');
      try {
        message = Base64.getUrlDecoder().decode(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Malformed base64 in the message parameter: " + e.getMessage(), e);
      }
    }
    return message.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(message);
  }

  /** Form-decodes {@code text}, the value of {@code parameter} (null for a name). */
  private static byte[] decode(String text, String parameter) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%') {
        int high = i + 1 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
        int low = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
        if (high < 0 || low < 0) {
          throw new IllegalArgumentException("Malformed percent-encoding in the query"
              + (parameter == null ? "" : " (parameter " + parameter + ")") + ": '%' must be followed by two hex digits");
        }
        out.write(high << 4 | low);
        i += 2;
      } else {
        out.write(c == '+' ? ' ' : c);
      }
    }
    return out.toByteArray();
  }
}
