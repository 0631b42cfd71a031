package io.triplerpc.internal.rest;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * JAX-RS ({@code jakarta.ws.rs} and {@code javax.ws.rs}) and Spring Web annotations, read by their names,
 * so that neither jar is needed by Triple: an interface that carries them has them on its class path.
 */
final class WebAnnotations {

  private static final String[] JAX_RS = {"jakarta.ws.rs.", "javax.ws.rs."};
  private static final String SPRING = "org.springframework.web.bind.annotation.";
  private static final List<String> JAX_RS_METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
  private static final List<String> SPRING_METHODS = List.of("Get", "Post", "Put", "Delete", "Patch");

  /** Where a parameter's value comes from. */
  enum Source { PATH, QUERY, HEADER, FORM, BODY }

  /**
   * A parameter as its annotations bind it.
   *
   * @param name the path variable, query parameter or header; null for the body
   * @param defaultValue the text used when the request has none, or null
   * @param required whether a missing value is an error (Spring's {@code required}; JAX-RS's are optional)
   */
  record Parameter(Source source, String name, String defaultValue, boolean required) {}

  /**
   * A route an interface method's annotations declare: its HTTP methods, its path (the type's prefix included)
   * and the conditions a request must meet besides (Spring's params, headers, consumes, produces; JAX-RS's
   * {@code @Consumes} and {@code @Produces}).
   */
  record Route(List<String> httpMethods, String path, MappingConditions conditions) {}

  private WebAnnotations() {}

  /** The routes of {@code method} of {@code type}: none if it has no HTTP method annotation. */
  static List<Route> routes(Class<?> type, Method method) {
    List<Route> routes = new ArrayList<>();
    List<String> prefixes = typePaths(type);
    for (Annotation annotation : method.getAnnotations()) {
      String name = annotation.annotationType().getName();
      for (String jaxRs : JAX_RS) {
        if (name.startsWith(jaxRs) && JAX_RS_METHODS.contains(name.substring(jaxRs.length()))) {
          Annotation path = find(method, jaxRs + "Path");
          String own = path == null ? "" : string(path, "value");
          MappingConditions conditions = MappingConditions.of(List.of(), List.of(),
              jaxRsMediaTypes(type, method, jaxRs + "Consumes"), jaxRsMediaTypes(type, method, jaxRs + "Produces"));
          for (String prefix : prefixes) {
            routes.add(new Route(List.of(name.substring(jaxRs.length())), join(prefix, own), conditions));
          }
        }
      }
      if (!name.startsWith(SPRING)) {
        continue;
      }
      String simple = name.substring(SPRING.length());
      List<String> httpMethods = null;
      if (simple.endsWith("Mapping") && SPRING_METHODS.contains(simple.substring(0, simple.length() - "Mapping".length()))) {
        httpMethods = List.of(simple.substring(0, simple.length() - "Mapping".length()).toUpperCase(Locale.ROOT));
      } else if (simple.equals("RequestMapping")) {
        httpMethods = new ArrayList<>();
        for (Object requestMethod : (Object[]) value(annotation, "method")) {
          httpMethods.add(requestMethod.toString());
        }
        if (httpMethods.isEmpty()) {
          // Spring maps a RequestMapping without methods to every method.
          httpMethods = List.of("GET", "POST", "PUT", "DELETE", "PATCH");
        }
      }
      if (httpMethods != null) {
        List<String> paths = paths(annotation);
        MappingConditions conditions = springConditions(find(type, SPRING + "RequestMapping"), annotation);
        for (String prefix : prefixes) {
          for (String own : paths.isEmpty() ? List.of("") : paths) {
            routes.add(new Route(httpMethods, join(prefix, own), conditions));
          }
        }
      }
    }
    return routes;
  }

  /** How parameter {@code index} of {@code method} is bound; null if its annotations say nothing. */
  static Parameter parameter(Method method, int index) {
    Annotation[] annotations = method.getParameterAnnotations()[index];
    String defaultValue = null;
    for (Annotation annotation : annotations) {
      for (String jaxRs : JAX_RS) {
        if (annotation.annotationType().getName().equals(jaxRs + "DefaultValue")) {
          defaultValue = string(annotation, "value");
        }
      }
    }
    for (Annotation annotation : annotations) {
      String name = annotation.annotationType().getName();
      for (String jaxRs : JAX_RS) {
        if (!name.startsWith(jaxRs)) {
          continue;
        }
        switch (name.substring(jaxRs.length())) {
          case "PathParam":
            return new Parameter(Source.PATH, string(annotation, "value"), null, true);
          case "QueryParam":
            return new Parameter(Source.QUERY, string(annotation, "value"), defaultValue, false);
          case "HeaderParam":
            return new Parameter(Source.HEADER, string(annotation, "value"), defaultValue, false);
          case "FormParam":
            return new Parameter(Source.FORM, string(annotation, "value"), defaultValue, false);
          case "DefaultValue":
            break;
          default:
            throw new IllegalArgumentException("@" + annotation.annotationType().getSimpleName() + " on parameter "
                + (index + 1) + " of " + method + " is not supported: bind it with @PathParam, @QueryParam,"
                + " @HeaderParam, @FormParam or as the body");
        }
      }
      if (!name.startsWith(SPRING)) {
        continue;
      }
      switch (name.substring(SPRING.length())) {
        case "PathVariable":
          return new Parameter(Source.PATH, springName(annotation, method, index), null, true);
        case "RequestParam":
          return new Parameter(Source.QUERY, springName(annotation, method, index), springDefault(annotation),
              (Boolean) value(annotation, "required") && springDefault(annotation) == null);
        case "RequestHeader":
          return new Parameter(Source.HEADER, springName(annotation, method, index), springDefault(annotation),
              (Boolean) value(annotation, "required") && springDefault(annotation) == null);
        case "RequestBody":
          return new Parameter(Source.BODY, null, null, (Boolean) value(annotation, "required"));
        default:
          throw new IllegalArgumentException("@" + annotation.annotationType().getSimpleName() + " on parameter "
              + (index + 1) + " of " + method + " is not supported: bind it with @PathVariable, @RequestParam,"
              + " @RequestHeader or @RequestBody");
      }
    }
    return null;
  }

  /** Spring's value (or name), else the parameter's own name (compiled with -parameters). */
  private static String springName(Annotation annotation, Method method, int index) {
    String name = string(annotation, "value");
    if (name.isEmpty()) {
      name = string(annotation, "name");
    }
    if (name.isEmpty()) {
      java.lang.reflect.Parameter parameter = method.getParameters()[index];
      if (!parameter.isNamePresent()) {
        throw new IllegalArgumentException("@" + annotation.annotationType().getSimpleName() + " on parameter "
            + (index + 1) + " of " + method + " names nothing, and the class was compiled without -parameters:"
            + " give it a name");
      }
      name = parameter.getName();
    }
    return name;
  }

  /** Spring's defaultValue, null when it is its "no default" marker. */
  private static String springDefault(Annotation annotation) {
    String value = string(annotation, "defaultValue");
    // ValueConstants.DEFAULT_NONE: "\n\t\t\n\t\t\n\uE000\uE001\uE002\n\t\t\t\t\n".
    return value.indexOf('\uE000') >= 0 ? null : value;
  }

  /**
   * A Spring mapping's conditions, with its type's {@code @RequestMapping} ({@code typeMapping}, or null): params
   * and headers of both apply, a method's consumes and produces replace the type's, as Spring combines them.
   */
  private static MappingConditions springConditions(Annotation typeMapping, Annotation mapping) {
    List<String> params = new ArrayList<>();
    List<String> headers = new ArrayList<>();
    List<String> consumes = List.of((String[]) value(mapping, "consumes"));
    List<String> produces = List.of((String[]) value(mapping, "produces"));
    if (typeMapping != null) {
      params.addAll(List.of((String[]) value(typeMapping, "params")));
      headers.addAll(List.of((String[]) value(typeMapping, "headers")));
      if (consumes.isEmpty()) {
        consumes = List.of((String[]) value(typeMapping, "consumes"));
      }
      if (produces.isEmpty()) {
        produces = List.of((String[]) value(typeMapping, "produces"));
      }
    }
    params.addAll(List.of((String[]) value(mapping, "params")));
    headers.addAll(List.of((String[]) value(mapping, "headers")));
    return MappingConditions.of(params, headers, consumes, produces);
  }

  /** JAX-RS's {@code @Consumes} or {@code @Produces} ({@code annotationName}) of the method, else of its type. */
  private static List<String> jaxRsMediaTypes(Class<?> type, Method method, String annotationName) {
    Annotation annotation = find(method, annotationName);
    if (annotation == null) {
      annotation = find(type, annotationName);
    }
    return annotation == null ? List.of() : List.of((String[]) value(annotation, "value"));
  }

  /** The path prefixes of the type: JAX-RS's @Path, Spring's @RequestMapping paths; "" for none. */
  private static List<String> typePaths(Class<?> type) {
    for (String jaxRs : JAX_RS) {
      Annotation path = find(type, jaxRs + "Path");
      if (path != null) {
        return List.of(string(path, "value"));
      }
    }
    Annotation mapping = find(type, SPRING + "RequestMapping");
    if (mapping != null) {
      List<String> paths = paths(mapping);
      return paths.isEmpty() ? List.of("") : paths;
    }
    return List.of("");
  }

  /** A Spring mapping's paths: its path() or, as an alias, its value(). */
  private static List<String> paths(Annotation mapping) {
    String[] paths = (String[]) value(mapping, "path");
    if (paths.length == 0) {
      paths = (String[]) value(mapping, "value");
    }
    return List.of(paths);
  }

  private static String join(String prefix, String path) {
    StringBuilder joined = new StringBuilder();
    for (String part : new String[] {prefix, path}) {
      String trimmed = part.strip();
      while (trimmed.startsWith("/")) {
        trimmed = trimmed.substring(1);
      }
      while (trimmed.endsWith("/")) {
        trimmed = trimmed.substring(0, trimmed.length() - 1);
      }
      if (!trimmed.isEmpty()) {
        joined.append('/').append(trimmed);
      }
    }
    return joined.length() == 0 ? "/" : joined.toString();
  }

  private static Annotation find(AnnotatedElement element, String typeName) {
    for (Annotation annotation : element.getAnnotations()) {
      if (annotation.annotationType().getName().equals(typeName)) {
        return annotation;
      }
    }
    return null;
  }

  private static String string(Annotation annotation, String attribute) {
    return (String) value(annotation, attribute);
  }

  private static Object value(Annotation annotation, String attribute) {
    try {
      return annotation.annotationType().getMethod(attribute).invoke(annotation);
    } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalArgumentException("Cannot read " + attribute + " of " + annotation, e);
    }
  }
}
