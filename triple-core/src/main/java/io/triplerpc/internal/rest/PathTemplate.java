package io.triplerpc.internal.rest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A path template of a {@code google.api.http} rule, as {@code google/api/http.proto} defines it:
 * {@code /v1/{name=shelves/*}/books/{book_id}:publish}. Segments are literals, {@code *} (one segment) or
 * {@code **} (any number, last but the verb); variables bind a field path to segments ({@code *} when
 * they name none). Matching takes the raw (still percent-encoded) path: a one-segment variable is
 * decoded whole, a multi-segment one keeps {@code %2F} as it is so that its slashes stay the template's.
 * Immutable.
 */
public final class PathTemplate {

  private static final String ANY = "*";
  private static final String ANY_PATH = "**";

  /** A variable over segments [start, end) of the template; multi when it spans several or holds **. */
  private record Variable(String fieldPath, int start, int end, boolean multi) {}

  private final String text;
  /** Each segment: a literal, ANY or ANY_PATH. */
  private final String[] segments;
  private final String verb;
  private final List<Variable> variables;
  /** Where ** is, or -1. */
  private final int anyPath;
  private final int literalCount;
  /** What a variable's value must match in full (JAX-RS and Spring {@code {id: [0-9]+}}), by field path. */
  private final Map<String, java.util.regex.Pattern> constraints;

  private PathTemplate(String text, List<String> segments, String verb, List<Variable> variables) {
    this(text, segments.toArray(new String[0]), verb, variables, Map.of());
  }

  private PathTemplate(String text, String[] segments, String verb, List<Variable> variables,
      Map<String, java.util.regex.Pattern> constraints) {
    this.text = text;
    this.segments = segments;
    this.verb = verb;
    this.variables = List.copyOf(variables);
    this.anyPath = java.util.Arrays.asList(segments).indexOf(ANY_PATH);
    this.literalCount = (int) java.util.Arrays.stream(segments).filter(s -> !s.equals(ANY) && !s.equals(ANY_PATH)).count();
    this.constraints = Map.copyOf(constraints);
  }

  /** This template, with each named variable's value required to match its pattern in full. */
  PathTemplate withConstraints(Map<String, java.util.regex.Pattern> constraints) {
    for (String fieldPath : constraints.keySet()) {
      if (!fieldPaths().contains(fieldPath)) {
        throw new IllegalArgumentException("No variable " + fieldPath + " in " + text);
      }
    }
    return new PathTemplate(text, segments, verb, variables, constraints);
  }

  /**
   * Parses {@code template}.
   *
   * @throws IllegalArgumentException naming what is wrong, if it is not a template
   */
  static PathTemplate parse(String template) {
    return new Parser(template).parse();
  }

  /** The template as written. */
  String text() {
    return text;
  }

  /** The field paths its variables bind, in order. */
  List<String> fieldPaths() {
    return variables.stream().map(Variable::fieldPath).toList();
  }

  /**
   * The path as OpenAPI writes it: each variable as {@code {fieldPath}} in place of its segments, or, for a
   * variable of literals and single wildcards, its segments with a parameter per wildcard
   * ({@link #openApiSegments}); the verb after a colon.
   */
  String openApiPath() {
    StringBuilder path = new StringBuilder();
    int i = 0;
    while (i < segments.length) {
      Variable variable = null;
      for (Variable candidate : variables) {
        if (candidate.start == i) {
          variable = candidate;
        }
      }
      if (variable == null) {
        path.append('/').append(segments[i]);
        i++;
        continue;
      }
      List<String> expanded = openApiSegments(variable.fieldPath);
      if (expanded == null) {
        path.append("/{").append(variable.fieldPath).append('}');
      } else {
        int parameter = 0;
        for (int j = variable.start; j < variable.end; j++) {
          path.append('/').append(segments[j].equals(ANY) ? "{" + expanded.get(parameter++) + "}" : segments[j]);
        }
      }
      i = Math.max(variable.end, i + 1);
    }
    if (verb != null) {
      path.append(':').append(verb);
    }
    return path.toString();
  }

  /**
   * The path parameters of a variable of literals and single wildcards, such as {@code name} in
   * {@code /v1/{name=shelves/*}:archive}: one per wildcard, named by the field path and the literal before it ({@code name.shelves},
   * {@code name.books}), as grpc-gateway's {@code expand_slashed_path_patterns} does; else null, the variable
   * being one parameter. Clients percent-encode a slash in a path parameter's value, which then is no
   * segment of the template: a parameter per segment is what a generated client can send.
   */
  List<String> openApiSegments(String fieldPath) {
    for (Variable variable : variables) {
      if (!variable.fieldPath.equals(fieldPath)) {
        continue;
      }
      boolean oneWildcard = variable.end - variable.start == 1 && segments[variable.start].equals(ANY);
      if (oneWildcard || anyPath >= variable.start && anyPath < variable.end) {
        return null;
      }
      List<String> names = new ArrayList<>();
      for (int i = variable.start; i < variable.end; i++) {
        if (segments[i].equals(ANY)) {
          String before = i > variable.start && !segments[i - 1].equals(ANY) ? segments[i - 1] : "segment";
          String name = fieldPath + "." + before;
          names.add(names.contains(name) ? name + (names.size() + 1) : name);
        }
      }
      return names;
    }
    return null;
  }

  /**
   * The pattern a variable's value has when it spans several segments or holds literals
   * ({@code shelves/[^/]+/books/[^/]+}), else null.
   */
  String openApiPattern(String fieldPath) {
    for (Variable variable : variables) {
      if (variable.fieldPath.equals(fieldPath) && (variable.end - variable.start > 1 || variable.multi)) {
        StringBuilder pattern = new StringBuilder("^");
        for (int i = variable.start; i < variable.end; i++) {
          if (i > variable.start) {
            pattern.append('/');
          }
          pattern.append(segments[i].equals(ANY) ? "[^/]+" : segments[i].equals(ANY_PATH) ? ".*"
              : segments[i].replaceAll("[.^$*+?()\\[\\]{}|\\\\]", "\\\\$0"));
        }
        return pattern.append('$').toString();
      }
    }
    java.util.regex.Pattern constraint = constraints.get(fieldPath);
    return constraint == null ? null : "^" + constraint.pattern() + "$";
  }

  /** How many literal segments it has: the more, the more specific. */
  int literalCount() {
    return literalCount;
  }

  /**
   * The variables' values if {@code rawPath} (the path without its query, percent-encoded as it came)
   * matches, else null.
   *
   * @throws IllegalArgumentException if a value holds a malformed percent-escape
   */
  Map<String, String> match(String rawPath) {
    String[] parts = split(rawPath);
    return parts == null ? null : match(parts);
  }

  /** A raw path's segments, as {@link #match(String[])} takes them; null if it does not start with /. */
  static String[] split(String rawPath) {
    return rawPath.isEmpty() || rawPath.charAt(0) != '/' ? null : rawPath.substring(1).split("/", -1);
  }

  /**
   * As {@link #match(String)}, for a path already {@link #split}: the routes split a request's path once
   * for all their templates.
   */
  Map<String, String> match(String[] rawParts) {
    String[] parts = rawParts;
    if (verb != null) {
      String last = parts[parts.length - 1];
      String suffix = ":" + verb;
      if (!last.endsWith(suffix) || last.length() == suffix.length()) {
        return null;
      }
      parts = parts.clone();
      parts[parts.length - 1] = last.substring(0, last.length() - suffix.length());
    }
    int n = parts.length;
    int k = segments.length;
    if (anyPath < 0 ? n != k : n < k - 1) {
      return null;
    }
    // Where each template segment starts in parts; ** covers what the others leave.
    int[] start = new int[k + 1];
    int at = 0;
    for (int i = 0; i < k; i++) {
      start[i] = at;
      int width = i == anyPath ? n - (k - 1) : 1;
      if (width == 1 && !segments[i].equals(ANY) && !segments[i].equals(ANY_PATH)
          && !segments[i].equals(decode(parts[at], true))) {
        return null;
      }
      at += width;
    }
    start[k] = at;
    Map<String, String> values = new LinkedHashMap<>();
    for (Variable variable : variables) {
      String raw = String.join("/", java.util.Arrays.copyOfRange(parts, start[variable.start], start[variable.end]));
      String value = decode(raw, !variable.multi);
      java.util.regex.Pattern constraint = constraints.get(variable.fieldPath);
      if (constraint != null && !constraint.matcher(value).matches()) {
        return null;
      }
      values.put(variable.fieldPath, value);
    }
    return values;
  }

  /**
   * Percent-decodes {@code raw} as UTF-8; {@code %2F} stays encoded unless {@code all}.
   *
   * @throws IllegalArgumentException for a malformed escape
   */
  static String decode(String raw, boolean all) {
    int percent = raw.indexOf('%');
    if (percent < 0) {
      return raw;
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '%') {
        int end = Character.isHighSurrogate(c) && i + 1 < raw.length() ? i + 2 : i + 1;
        byte[] utf8 = raw.substring(i, end).getBytes(StandardCharsets.UTF_8);
        out.write(utf8, 0, utf8.length);
        i = end - 1;
        continue;
      }
      int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
      int low = high >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
      if (low < 0) {
        throw new IllegalArgumentException("Malformed percent-escape in the path: "
            + raw.substring(i, Math.min(raw.length(), i + 3)));
      }
      int decoded = high << 4 | low;
      if (decoded == '/' && !all) {
        out.write('%');
        out.write(raw.charAt(i + 1));
        out.write(raw.charAt(i + 2));
      } else {
        out.write(decoded);
      }
      i += 2;
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return text;
  }

  /** The grammar of http.proto: Template = "/" Segments [ Verb ]. */
  private static final class Parser {
    private final String text;
    private int at;
    private final List<String> segments = new ArrayList<>();
    private final List<Variable> variables = new ArrayList<>();

    Parser(String text) {
      this.text = text;
    }

    PathTemplate parse() {
      if (text.isEmpty() || text.charAt(0) != '/') {
        throw error("a template starts with /");
      }
      at = 1;
      segments(false);
      String verb = null;
      if (at < text.length() && text.charAt(at) == ':') {
        at++;
        verb = literal();
      }
      if (at != text.length()) {
        throw error("unexpected '" + text.charAt(at) + "' at " + at);
      }
      long anyPaths = segments.stream().filter(ANY_PATH::equals).count();
      if (anyPaths > 1 || anyPaths == 1 && !segments.get(segments.size() - 1).equals(ANY_PATH)) {
        throw error("** may appear once, as the last segment");
      }
      return new PathTemplate(text, segments, verb, variables);
    }

    private void segments(boolean inVariable) {
      while (true) {
        segment(inVariable);
        if (at < text.length() && text.charAt(at) == '/') {
          at++;
        } else {
          return;
        }
      }
    }

    private void segment(boolean inVariable) {
      if (text.startsWith(ANY_PATH, at)) {
        segments.add(ANY_PATH);
        at += 2;
      } else if (text.startsWith(ANY, at)) {
        segments.add(ANY);
        at += 1;
      } else if (text.startsWith("{", at)) {
        if (inVariable) {
          throw error("a variable inside a variable");
        }
        variable();
      } else {
        segments.add(literal());
      }
    }

    private void variable() {
      at++;
      int nameStart = at;
      while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_'
          || text.charAt(at) == '.')) {
        at++;
      }
      String fieldPath = text.substring(nameStart, at);
      if (fieldPath.isEmpty() || fieldPath.startsWith(".") || fieldPath.endsWith(".") || fieldPath.contains("..")) {
        throw error("a variable names a field path");
      }
      int first = segments.size();
      if (at < text.length() && text.charAt(at) == '=') {
        at++;
        segments(true);
      } else {
        segments.add(ANY);
      }
      if (at >= text.length() || text.charAt(at) != '}') {
        throw error("variable " + fieldPath + " is not closed with }");
      }
      at++;
      int end = segments.size();
      boolean multi = end - first > 1 || segments.subList(first, end).contains(ANY_PATH);
      if (variables.stream().anyMatch(v -> v.fieldPath.equals(fieldPath))) {
        throw error("variable " + fieldPath + " appears twice");
      }
      variables.add(new Variable(fieldPath, first, end, multi));
    }

    private String literal() {
      int start = at;
      while (at < text.length() && "/{}:*".indexOf(text.charAt(at)) < 0) {
        at++;
      }
      if (at == start) {
        throw error("an empty segment at " + start);
      }
      return decode(text.substring(start, at), true);
    }

    private IllegalArgumentException error(String why) {
      return new IllegalArgumentException("Malformed HTTP path template " + text + ": " + why);
    }
  }
}
