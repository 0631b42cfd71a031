package io.triplerpc.internal.rest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * JAX-RS and Spring Web path templates as {@link PathTemplate}s: {@code /users/{id}}, a variable with a
 * regular expression ({@code {id: \d+}}, {@code {id:\d+}}) matched in full against its one segment, one that
 * may span segments ({@code {path: .*}}, Spring's {@code {*path}}) as {@code **} at the end, variables that
 * share a segment with text or with each other ({@code /files/{name}.{ext}},
 * {@code {name:[a-z-]+}-{version:\d\.\d\.\d}}) as one variable of the whole segment whose expression has a
 * group for each (a variable without its own expression is {@code [^/]+} there, as Dubbo 3.3 reads it), and
 * literals as they are (a {@code :} or {@code *} in one is no verb or wildcard).
 */
final class WebPaths {

  /**
   * Where an annotated path variable's value is.
   *
   * @param key the key of the segment's value in {@link PathTemplate}'s values
   * @param segment for a variable that shares its segment, the segment's expression, whose group
   *     {@code group} is the variable's value; null for a variable that is the whole segment (or more)
   * @param openApiSegment for a variable that shares its segment, the segment as OpenAPI writes it
   *     ({@code {name}-{version}{ext}}); null for the others
   */
  record Variable(String key, Pattern segment, String group, String openApiSegment) {

    /** The variable's value out of the template's {@code values}; null if it has none. */
    String valueIn(Map<String, String> values) {
      String value = values.get(key);
      if (value == null || segment == null) {
        return value;
      }
      Matcher matcher = segment.matcher(value);
      return matcher.matches() ? matcher.group(group) : null;
    }
  }

  /**
   * A converted template and, by variable name, where its values are.
   *
   * @param variables each variable's name in the annotations mapped to where its value is
   */
  record Converted(PathTemplate template, Map<String, Variable> variables) {}

  private WebPaths() {}

  /**
   * Converts {@code path}.
   *
   * @throws IllegalArgumentException naming what cannot be served, for a spanning variable before the end or
   *     in a segment it shares, or a bad expression
   */
  static Converted convert(String path) {
    StringBuilder template = new StringBuilder();
    Map<String, Variable> variables = new LinkedHashMap<>();
    Map<String, Pattern> constraints = new LinkedHashMap<>();
    boolean spanned = false;
    int at = 0;
    while (at < path.length()) {
      if (spanned) {
        throw new IllegalArgumentException("In " + path + ", a variable that spans segments must end the path");
      }
      if (path.charAt(at) == '/') {
        template.append('/');
        at++;
        continue;
      }
      int end = segmentEnd(path, at);
      String segment = path.substring(at, end);
      if (segment.indexOf('{') < 0) {
        for (int i = 0; i < segment.length(); i++) {
          template.append(literal(segment.charAt(i)));
        }
      } else if (segment.charAt(0) == '{' && closing(path, at) == end - 1) {
        spanned = wholeSegment(path, segment.substring(1, segment.length() - 1), template, variables, constraints);
      } else {
        sharedSegment(path, segment, template, variables, constraints);
      }
      at = end;
    }
    PathTemplate parsed = PathTemplate.parse(template.length() == 0 ? "/" : template.toString());
    return new Converted(parsed.withConstraints(constraints), variables);
  }

  /** A variable that is a whole segment, or spans the rest; returns whether it spans. */
  private static boolean wholeSegment(String path, String inside, StringBuilder template,
      Map<String, Variable> variables, Map<String, Pattern> constraints) {
    int colon = inside.indexOf(':');
    String name = (colon < 0 ? inside : inside.substring(0, colon)).strip();
    String regex = colon < 0 ? null : inside.substring(colon + 1).strip();
    boolean catchAll = name.startsWith("*");
    if (catchAll) {
      name = name.substring(1);
    }
    String key = name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : "v" + variables.size();
    add(path, name, new Variable(key, null, null, null), variables);
    boolean spans = catchAll || ".*".equals(regex) || ".+".equals(regex);
    if (spans) {
      template.append('{').append(key).append("=**}");
    } else {
      template.append('{').append(key).append('}');
      if (regex != null) {
        constraints.put(key, compile(path, name, regex));
      }
    }
    return spans;
  }

  /** A segment of text and variables: one variable of the whole segment, an expression with a group for each. */
  private static void sharedSegment(String path, String segment, StringBuilder template,
      Map<String, Variable> variables, Map<String, Pattern> constraints) {
    String key = "segment_" + constraints.size() + "_" + variables.size();
    StringBuilder regex = new StringBuilder();
    StringBuilder openApi = new StringBuilder();
    List<String[]> names = new ArrayList<>();
    int at = 0;
    while (at < segment.length()) {
      int open = segment.indexOf('{', at);
      if (open < 0 || open > at) {
        String text = segment.substring(at, open < 0 ? segment.length() : open);
        regex.append(Pattern.quote(text));
        openApi.append(text);
        at += text.length();
        continue;
      }
      int close = closing(segment, open);
      String inside = segment.substring(open + 1, close);
      int colon = inside.indexOf(':');
      String name = (colon < 0 ? inside : inside.substring(0, colon)).strip();
      String own = colon < 0 ? null : inside.substring(colon + 1).strip();
      if (name.startsWith("*") || ".*".equals(own) || ".+".equals(own)) {
        throw new IllegalArgumentException("In " + path + ", a variable that spans segments must be a segment of"
            + " its own");
      }
      if (own != null) {
        compile(path, name, own);
      }
      String group = "g" + names.size();
      regex.append("(?<").append(group).append('>').append(own == null ? "[^/]+" : own).append(')');
      openApi.append('{').append(name).append('}');
      names.add(new String[] {name, group});
      at = close + 1;
    }
    Pattern pattern = compile(path, segment, regex.toString());
    for (String[] name : names) {
      add(path, name[0], new Variable(key, pattern, name[1], openApi.toString()), variables);
    }
    template.append('{').append(key).append('}');
    constraints.put(key, pattern);
  }

  private static void add(String path, String name, Variable variable, Map<String, Variable> variables) {
    if (name.isEmpty() || variables.containsKey(name)) {
      throw new IllegalArgumentException("In " + path + ", a variable without a name, or named twice");
    }
    variables.put(name, variable);
  }

  private static Pattern compile(String path, String name, String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("In " + path + ", variable " + name + ": " + e.getMessage(), e);
    }
  }

  /** Where the segment that starts at {@code start} ends: the next {@code /} outside braces, or the end. */
  private static int segmentEnd(String path, int start) {
    int at = start;
    while (at < path.length() && path.charAt(at) != '/') {
      at = path.charAt(at) == '{' ? closing(path, at) + 1 : at + 1;
    }
    return at;
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
