package io.triplerpc.internal.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.serialization.JsonParameters;
import io.triplerpc.serialization.MalformedMessageException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a plain Java method's arguments from a REST request as its annotations bind them: each path
 * variable, query parameter or header from its text (as a JSON string its declared type reads: numbers,
 * booleans, enums, dates, through the service's JSON codec and allow list), a collection or array from
 * every value of a repeated query parameter, the body from its JSON. Immutable; one per method.
 */
final class AnnotatedRequestReader implements RestRequestReader {

  /** Only checks that a string body is JSON. */
  private static final ObjectMapper TEXT = new ObjectMapper();

  private final WebAnnotations.Parameter[] parameters;
  /** Where each path parameter's value is in the template's values; null for the others. */
  private final WebPaths.Variable[] pathVariables;
  private final boolean[] many;
  /** Whether each parameter is a {@code String} body, which takes JSON other than a string as its text. */
  private final boolean[] textBody;
  /** Which parameters are booleans, whose texts {@code 1} and {@code 0} are true and false, as Dubbo 3.3 reads them. */
  private final boolean[] bool;
  private final JsonParameters json;
  private final boolean readsBody;
  /** Whether a form body is read: a parameter is a form field (JAX-RS) or a request parameter (Spring), none the body. */
  private final boolean readsForm;
  /** Whether the method's annotations are JAX-RS's: its query parameters are the URL's only. */
  private final boolean jaxRs;

  private AnnotatedRequestReader(WebAnnotations.Parameter[] parameters, WebPaths.Variable[] pathVariables,
      boolean[] many, JsonParameters json, boolean jaxRs) {
    this.jaxRs = jaxRs;
    this.parameters = parameters;
    this.pathVariables = pathVariables;
    this.many = many;
    this.json = json;
    this.textBody = new boolean[parameters.length];
    this.bool = new boolean[parameters.length];
    boolean body = false;
    boolean fields = false;
    for (int i = 0; i < parameters.length; i++) {
      body |= parameters[i].source() == WebAnnotations.Source.BODY;
      fields |= parameters[i].source() == WebAnnotations.Source.FORM
          || parameters[i].source() == WebAnnotations.Source.QUERY && !jaxRs;
      textBody[i] = parameters[i].source() == WebAnnotations.Source.BODY && json.parameterTypes().get(i) == String.class;
      java.lang.reflect.Type type = json.parameterTypes().get(i);
      bool[i] = type == boolean.class || type == Boolean.class;
    }
    this.readsBody = body;
    this.readsForm = fields && !body;
  }

  @Override
  public boolean readsForm() {
    return readsForm;
  }

  /**
   * The reader of {@code method}'s parameters.
   *
   * @param variables each path variable's name mapped to where its value is in the template's values
   * @throws IllegalArgumentException if a parameter is bound to nothing the path has, or two to the body
   */
  static AnnotatedRequestReader of(Method method, JsonParameters json, Map<String, WebPaths.Variable> variables,
      String where) {
    List<Type> types = json.parameterTypes();
    int count = method.getParameterCount();
    WebAnnotations.Parameter[] parameters = new WebAnnotations.Parameter[count];
    WebPaths.Variable[] pathVariables = new WebPaths.Variable[count];
    boolean[] many = new boolean[count];
    boolean body = false;
    boolean jaxRs = false;
    for (java.lang.annotation.Annotation annotation : method.getAnnotations()) {
      jaxRs |= annotation.annotationType().getName().matches("(jakarta|javax)\\.ws\\.rs\\..*");
    }
    for (int i = 0; i < count; i++) {
      WebAnnotations.Parameter parameter = WebAnnotations.parameter(method, i);
      Type type = types.get(i);
      if (parameter == null) {
        // Unannotated: JAX-RS's entity; for Spring, a simple value is a query parameter of its name.
        String name = method.getParameters()[i].getName();
        parameter = !jaxRs && isSimple(type) && method.getParameters()[i].isNamePresent()
            ? new WebAnnotations.Parameter(WebAnnotations.Source.QUERY, name, null, false)
            : new WebAnnotations.Parameter(WebAnnotations.Source.BODY, null, null, false);
      }
      if (parameter.source() == WebAnnotations.Source.BODY) {
        if (body) {
          throw new IllegalArgumentException("two parameters take the body");
        }
        body = true;
      }
      if (parameter.source() == WebAnnotations.Source.PATH) {
        pathVariables[i] = variables.get(parameter.name());
        if (pathVariables[i] == null) {
          throw new IllegalArgumentException("parameter " + parameter.name() + " names a variable the path "
              + variables.keySet() + " does not have");
        }
      }
      many[i] = isMany(type);
      parameters[i] = parameter;
    }
    return new AnnotatedRequestReader(parameters, pathVariables, many, json, jaxRs);
  }

  @Override
  public Object read(InputStream in, RestRequest rest) throws IOException {
    Map<String, List<String>> query;
    try {
      query = rest.rawQuery() == null ? Map.of() : QueryParameters.parse(rest.rawQuery());
    } catch (IllegalArgumentException e) {
      throw new MalformedMessageException(e.getMessage(), e);
    }
    byte[] body = readsBody ? in.readAllBytes() : null;
    Map<String, List<String>> form = Map.of();
    if (rest.formBody()) {
      try {
        form = QueryParameters.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw new MalformedMessageException("Malformed form body: " + e.getMessage(), e);
      }
    }
    Object[] arguments = new Object[parameters.length];
    for (int i = 0; i < parameters.length; i++) {
      WebAnnotations.Parameter parameter = parameters[i];
      byte[] value;
      switch (parameter.source()) {
        case PATH -> {
          String path = pathVariables[i].valueIn(rest.pathVariables());
          value = text(path == null ? null : List.of(path), i);
        }
        // A request parameter, as Spring's: the query's values, then a form body's (a JAX-RS @QueryParam
        // is never in a form body, and JAX-RS methods have no unannotated query parameter to mistake for one).
        case QUERY -> value = text(concat(query.get(parameter.name()), jaxRs ? null : form.get(parameter.name())), i);
        case FORM -> value = text(form.get(parameter.name()), i);
        case HEADER -> value = text(rest.headers() == null ? null
            : rest.headers().getAll(parameter.name().toLowerCase(java.util.Locale.ROOT)), i);
        default -> value = ProtoRequestReader.isBlank(body) ? null : textBody[i] ? text(body) : body;
      }
      if (value == null) {
        if (parameter.required()) {
          throw new MalformedMessageException("Missing " + describe(parameter), null);
        }
        value = "null".getBytes(StandardCharsets.UTF_8);
      }
      try {
        arguments[i] = json.readParameter(i, value);
      } catch (MalformedMessageException e) {
        throw new MalformedMessageException("Malformed " + describe(parameter) + ": " + e.getMessage(), e);
      }
    }
    return arguments;
  }

  private static List<String> concat(List<String> first, List<String> second) {
    if (first == null || second == null) {
      return first == null ? second : first;
    }
    List<String> all = new java.util.ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  /** What an OpenAPI document says of the route this reader serves, of {@code template}, answering {@code result}. */
  RouteDocs docs(PathTemplate template, Type result) {
    return new JavaRouteDocs(template, parameters, pathVariables, json.parameterTypes(), result);
  }

  /**
   * A body for a {@code String} parameter: a JSON string as it is (its value), any other JSON value as a
   * string of its text, as Dubbo 3.3 reads a string body ({@code {"a":1}} is the text {@code {"a":1}}).
   *
   * @throws MalformedMessageException if the body is not JSON
   */
  private static byte[] text(byte[] body) throws IOException {
    JsonNode value;
    try {
      value = TEXT.readTree(body);
    } catch (JsonProcessingException e) {
      throw new MalformedMessageException("Malformed body: " + e.getOriginalMessage(), e);
    }
    if (value.isTextual()) {
      return body;
    }
    StringBuilder json = new StringBuilder();
    ConnectWire.appendString(json, new String(body, StandardCharsets.UTF_8).strip());
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The JSON a parameter's texts make: one string, or an array of them for a collection; null for none. */
  private byte[] text(List<String> values, int index) {
    WebAnnotations.Parameter parameter = parameters[index];
    if (values == null || values.isEmpty()) {
      if (parameter.defaultValue() == null) {
        return null;
      }
      values = List.of(parameter.defaultValue());
    }
    StringBuilder json = new StringBuilder();
    if (many[index]) {
      json.append('[');
      for (int i = 0; i < values.size(); i++) {
        if (i > 0) {
          json.append(',');
        }
        ConnectWire.appendString(json, values.get(i));
      }
      json.append(']');
    } else {
      String value = values.get(0);
      ConnectWire.appendString(json, bool[index] && value.equals("1") ? "true" : bool[index] && value.equals("0") ? "false"
          : value);
    }
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String describe(WebAnnotations.Parameter parameter) {
    return switch (parameter.source()) {
      case PATH -> "path variable " + parameter.name();
      case QUERY -> "query parameter " + parameter.name();
      case HEADER -> "header " + parameter.name();
      case FORM -> "form field " + parameter.name();
      default -> "body";
    };
  }

  private static boolean isMany(Type type) {
    Class<?> raw = raw(type);
    return raw != null && (Collection.class.isAssignableFrom(raw) || raw.isArray() && raw != byte[].class)
        || type instanceof GenericArrayType;
  }

  private static boolean isSimple(Type type) {
    Class<?> raw = raw(type);
    if (raw == Optional.class && type instanceof ParameterizedType parameterized) {
      return isSimple(parameterized.getActualTypeArguments()[0]);
    }
    if (isMany(type)) {
      Type element = type instanceof ParameterizedType parameterized ? parameterized.getActualTypeArguments()[0]
          : raw != null && raw.isArray() ? raw.getComponentType() : Object.class;
      return isSimple(element);
    }
    return raw != null && (raw.isPrimitive() || raw.isEnum() || Number.class.isAssignableFrom(raw)
        || CharSequence.class.isAssignableFrom(raw) || raw == Boolean.class || raw == Character.class
        || raw == java.util.UUID.class || raw.getName().startsWith("java.time."));
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> c) {
      return c;
    }
    return null;
  }
}
