package io.triplerpc.internal.rest;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * JAX-RS and Spring Web path templates as {@link PathTemplate}s: {@code /users/{id}}, a variable with a
 * regular expression ({@code {id: \d+}}, {@code {id:\d+}}) matched in full against its one segment, one that
 * may span segments ({@code {path: .*}}, Spring's {@code {*path}}) as {@code **} at the end, and literals
 * as they are (a {@code :} or {@code *} in one is no verb or wildcard).
 */
final class WebPaths {

  /**
   * A converted template and, by variable name, the key its values have.
   *
   * @param keys each variable's name in the annotations mapped to its key in {@link PathTemplate}'s values
   */
  record Converted(PathTemplate template, Map<String, String> keys) {}

  private WebPaths() {}

  /**
   * Converts {@code path}.
   *
   * @throws IllegalArgumentException naming what cannot be served, for a variable that shares its segment
   *     with text ({@code /files/{name}.{ext}}), a spanning variable before the end, or a bad expression
   */
  static Converted convert(String path) {
    StringBuilder template = new StringBuilder();
    Map<String, String> keys = new LinkedHashMap<>();
    Map<String, Pattern> constraints = new LinkedHashMap<>();
    int at = 0;
    boolean spanned = false;
    while (at < path.length()) {
      char c = path.charAt(at);
      if (c != '{') {
        if (spanned) {
          throw new IllegalArgumentException("In " + path + ", a variable that spans segments must end the path");
        }
        template.append(literal(c));
        at++;
        continue;
      }
      int end = closing(path, at);
      boolean segmentStart = at > 0 && path.charAt(at - 1) == '/';
      boolean segmentEnd = end + 1 == path.length() || path.charAt(end + 1) == '/';
      if (!segmentStart || !segmentEnd) {
        throw new IllegalArgumentException("In " + path + ", a variable shares its segment with text: only whole"
            + " segments are served");
      }
      String inside = path.substring(at + 1, end);
      int colon = inside.indexOf(':');
      String name = (colon < 0 ? inside : inside.substring(0, colon)).strip();
      String regex = colon < 0 ? null : inside.substring(colon + 1).strip();
      boolean catchAll = name.startsWith("*");
      if (catchAll) {
        name = name.substring(1);
      }
      if (name.isEmpty() || keys.containsKey(name)) {
        throw new IllegalArgumentException("In " + path + ", a variable without a name, or named twice");
      }
      String key = name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : "v" + keys.size();
      keys.put(name, key);
      boolean spans = catchAll || ".*".equals(regex) || ".+".equals(regex);
      if (spans) {
        template.append('{').append(key).append("=**}");
        spanned = true;
      } else {
        template.append('{').append(key).append('}');
        if (regex != null) {
          try {
            constraints.put(key, Pattern.compile(regex));
          } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("In " + path + ", variable " + name + ": " + e.getMessage(), e);
          }
        }
      }
      at = end + 1;
    }
    PathTemplate parsed = PathTemplate.parse(template.length() == 0 ? "/" : template.toString());
    return new Converted(parsed.withConstraints(constraints), keys);
  }

  /** The index of the brace that closes the one at {@code open}, counting a regular expression's own. */
  private static int closing(String path, int open) {
    int depth = 0;
    for (int i = open; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalArgumentException("In " + path + ", a { is not closed");
  }

  /** A literal character in PathTemplate's syntax: its separators as they are, its operators escaped. */
  private static String literal(char c) {
    if (c == '/' || Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0) {
      return String.valueOf(c);
    }
    StringBuilder escaped = new StringBuilder();
    for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
      escaped.append('%').append(String.format("%02X", b & 0xff));
    }
    return escaped.toString();
  }
}
