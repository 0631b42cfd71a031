package io.triplerpc.internal.rest;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A URL query as {@code application/x-www-form-urlencoded}: {@code &}-separated pairs, {@code +} for a
 * space, percent-escapes in UTF-8; a name without {@code =} has the empty value. Stateless.
 */
final class QueryParameters {

  private QueryParameters() {}

  /**
   * Each name with its values in the order they came.
   *
   * @throws IllegalArgumentException for a malformed percent-escape or a {@code ;} separator (which Go's
   *     parser, grpc-gateway's, refuses too)
   */
  static Map<String, List<String>> parse(String rawQuery) {
    Map<String, List<String>> parameters = new LinkedHashMap<>();
    if (rawQuery.isEmpty()) {
      return parameters;
    }
    for (String pair : rawQuery.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      if (pair.indexOf(';') >= 0) {
        throw new IllegalArgumentException("invalid semicolon separator in query");
      }
      int equals = pair.indexOf('=');
      String name = decode(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
      parameters.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }
    return parameters;
  }

  private static String decode(String raw) {
    if (raw.indexOf('%') < 0 && raw.indexOf('+') < 0) {
      return raw;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '+') {
        out.write(' ');
      } else if (c == '%') {
        int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
        int low = high >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
        if (low < 0) {
          throw new IllegalArgumentException("invalid URL escape \"" + raw.substring(i, Math.min(raw.length(), i + 3))
              + "\" in the query");
        }
        out.write(high << 4 | low);
        i += 2;
      } else {
        byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
