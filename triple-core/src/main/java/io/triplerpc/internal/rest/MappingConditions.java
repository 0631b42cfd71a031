package io.triplerpc.internal.rest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The conditions of a Spring Web mapping ({@code params}, {@code headers}, {@code consumes}, {@code produces}) or
 * of JAX-RS's {@code @Consumes} and {@code @Produces}, which decide, beside the path and the HTTP method, whether a
 * request maps to a method. Read as Spring reads them: {@code "a"} the parameter (or header) is there, {@code "!a"}
 * it is not, {@code "a=1"} it has that value, {@code "a!=1"} it has not (or is not there); a media type of
 * {@code consumes} must include the request's {@code Content-Type} ({@code application/octet-stream} when it has
 * none), one of {@code produces} must be compatible with one the {@code Accept} header names ({@code *}{@code /*}
 * when it has none); wildcards ({@code text/*}) on either side. Immutable.
 */
public final class MappingConditions {

  /** No condition: every request matches. */
  public static final MappingConditions NONE = new MappingConditions(List.of(), List.of(), List.of(), List.of());

  /** How a request fails a mapping's conditions, in the order Spring reports them. */
  enum Failure { CONSUMES, PRODUCES, PARAMS, HEADERS }

  private final List<Expression> params;
  private final List<Expression> headers;
  private final List<MediaType> consumes;
  private final List<MediaType> produces;

  private MappingConditions(List<Expression> params, List<Expression> headers, List<MediaType> consumes,
      List<MediaType> produces) {
    this.params = List.copyOf(params);
    this.headers = List.copyOf(headers);
    this.consumes = List.copyOf(consumes);
    this.produces = List.copyOf(produces);
  }

  /**
   * The conditions of these annotation values (each may be empty).
   *
   * @throws IllegalArgumentException naming the value, if one is malformed
   */
  static MappingConditions of(List<String> params, List<String> headers, List<String> consumes,
      List<String> produces) {
    if (params.isEmpty() && headers.isEmpty() && consumes.isEmpty() && produces.isEmpty()) {
      return NONE;
    }
    List<Expression> paramExpressions = new ArrayList<>();
    for (String param : params) {
      paramExpressions.add(Expression.parse(param, false));
    }
    List<Expression> headerExpressions = new ArrayList<>();
    for (String header : headers) {
      headerExpressions.add(Expression.parse(header, true));
    }
    return new MappingConditions(paramExpressions, headerExpressions, mediaTypes(consumes), mediaTypes(produces));
  }

  private static List<MediaType> mediaTypes(List<String> values) {
    List<MediaType> types = new ArrayList<>();
    for (String value : values) {
      // An annotation value may list several, comma-separated (JAX-RS allows it; Spring splits them too).
      for (String one : value.split(",")) {
        if (!one.isBlank()) {
          types.add(MediaType.parse(one));
        }
      }
    }
    return types;
  }

  /** Whether there are none. */
  boolean isEmpty() {
    return this == NONE;
  }

  /** How many there are: of two mappings a request matches, the one with more conditions is the more specific. */
  int count() {
    return params.size() + headers.size() + (consumes.isEmpty() ? 0 : 1) + (produces.isEmpty() ? 0 : 1);
  }

  /**
   * The first condition the request fails, or null if it meets them all.
   *
   * @param query the request's query parameters, decoded
   * @param header a request header by its lower-case name, or null
   */
  Failure test(Map<String, List<String>> query, Function<String, CharSequence> header) {
    if (!consumes.isEmpty()) {
      CharSequence contentType = header.apply("content-type");
      MediaType type = contentType == null ? MediaType.OCTET_STREAM : MediaType.parseOrNull(contentType.toString());
      if (type == null || consumes.stream().noneMatch(accepted -> accepted.includes(type))) {
        return Failure.CONSUMES;
      }
    }
    if (!produces.isEmpty() && !acceptable(header.apply("accept"))) {
      return Failure.PRODUCES;
    }
    for (Expression param : params) {
      List<String> values = query.get(param.name);
      if (!param.matches(values == null || values.isEmpty() ? null : values.get(0))) {
        return Failure.PARAMS;
      }
    }
    for (Expression expression : headers) {
      CharSequence value = header.apply(expression.name);
      if (!expression.matches(value == null ? null : value.toString())) {
        return Failure.HEADERS;
      }
    }
    return null;
  }

  private boolean acceptable(CharSequence accept) {
    if (accept == null || accept.toString().isBlank()) {
      return true;
    }
    for (String one : accept.toString().split(",")) {
      MediaType wanted = MediaType.parseOrNull(one);
      if (wanted != null && !wanted.refused() && produces.stream().anyMatch(wanted::compatible)) {
        return true;
      }
    }
    return false;
  }

  /** What the request must carry, for messages: {@code params [a=1], consumes [application/json]}. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    if (!params.isEmpty()) {
      parts.add("params " + params);
    }
    if (!headers.isEmpty()) {
      parts.add("headers " + headers);
    }
    if (!consumes.isEmpty()) {
      parts.add("consumes " + consumes);
    }
    if (!produces.isEmpty()) {
      parts.add("produces " + produces);
    }
    return String.join(", ", parts);
  }

  /** {@code a}, {@code !a}, {@code a=v} or {@code a!=v}. */
  private record Expression(String name, String value, boolean negated, String text) {

    static Expression parse(String text, boolean header) {
      String trimmed = text.trim();
      int equals = trimmed.indexOf('=');
      String name;
      String value = null;
      boolean negated;
      if (equals < 0) {
        negated = trimmed.startsWith("!");
        name = negated ? trimmed.substring(1) : trimmed;
      } else {
        negated = equals > 0 && trimmed.charAt(equals - 1) == '!';
        name = trimmed.substring(0, negated ? equals - 1 : equals);
        value = trimmed.substring(equals + 1);
      }
      name = name.trim();
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a condition without a name: \"" + text + "\"");
      }
      return new Expression(header ? name.toLowerCase(Locale.ROOT) : name, value, negated, trimmed);
    }

    /** Whether a request whose value is {@code actual} (null if it has none) meets this. */
    boolean matches(String actual) {
      boolean met = value == null ? actual != null : value.equals(actual);
      return negated != met;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** A media type, {@code type/subtype}, lower case, parameters aside except {@code q=0}. */
  private record MediaType(String type, String subtype, boolean refused) {

    static final MediaType OCTET_STREAM = new MediaType("application", "octet-stream", false);

    static MediaType parse(String text) {
      MediaType type = parseOrNull(text);
      if (type == null) {
        throw new IllegalArgumentException("not a media type: \"" + text.trim() + "\"");
      }
      return type;
    }

    static MediaType parseOrNull(String text) {
      String[] parts = text.split(";");
      String full = parts[0].trim().toLowerCase(Locale.ROOT);
      if (full.equals("*")) {
        full = "*/*";
      }
      int slash = full.indexOf('/');
      if (slash <= 0 || slash == full.length() - 1 || full.indexOf('/', slash + 1) >= 0) {
        return null;
      }
      boolean refused = false;
      for (int i = 1; i < parts.length; i++) {
        String parameter = parts[i].trim().toLowerCase(Locale.ROOT).replace(" ", "");
        if (parameter.startsWith("q=") && parameter.substring(2).matches("0(\\.0*)?")) {
          refused = true;
        }
      }
      return new MediaType(full.substring(0, slash), full.substring(slash + 1), refused);
    }

    /** Whether this (a mapping's, with its wildcards) includes {@code other} (a request's content type). */
    boolean includes(MediaType other) {
      if (type.equals("*")) {
        return true;
      }
      if (!type.equals(other.type)) {
        return false;
      }
      if (subtype.equals("*") || subtype.equals(other.subtype)) {
        return true;
      }
      // application/*+json includes application/problem+json, as Spring's MimeType does.
      return subtype.startsWith("*+") && other.subtype.endsWith(subtype.substring(1));
    }

    /** Whether this and {@code other} have a type in common (either's wildcards). */
    boolean compatible(MediaType other) {
      return includes(other) || other.includes(this);
    }

    @Override
    public String toString() {
      return type + "/" + subtype;
    }
  }
}
