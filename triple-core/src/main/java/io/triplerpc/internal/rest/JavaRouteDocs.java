package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Locale;

/** The OpenAPI description of an annotated route: each parameter where it binds, the body, the result. */
final class JavaRouteDocs implements RouteDocs {

  private final PathTemplate template;
  private final WebAnnotations.Parameter[] parameters;
  /** Where each path parameter is in the template; null for the others. */
  private final WebPaths.Variable[] pathVariables;
  private final List<Type> types;
  private final Type result;

  JavaRouteDocs(PathTemplate template, WebAnnotations.Parameter[] parameters, WebPaths.Variable[] pathVariables,
      List<Type> types, Type result) {
    this.template = template;
    this.parameters = parameters;
    this.pathVariables = pathVariables;
    this.types = types;
    this.result = result;
  }

  @Override
  public void describe(ObjectNode operation, OpenApiSchemas schemas) {
    ArrayNode list = operation.putArray("parameters");
    ObjectNode form = null;
    for (int i = 0; i < parameters.length; i++) {
      WebAnnotations.Parameter parameter = parameters[i];
      ObjectNode schema = schemas.java(types.get(i));
      if (parameter.source() == WebAnnotations.Source.BODY) {
        ObjectNode body = operation.putObject("requestBody").put("required", parameter.required());
        body.putObject("content").putObject("application/json").set("schema", schema);
        continue;
      }
      if (parameter.source() == WebAnnotations.Source.FORM) {
        // Form fields are the properties of a form body's schema, not parameters.
        if (form == null) {
          form = operation.putObject("requestBody").putObject("content")
              .putObject("application/x-www-form-urlencoded").putObject("schema").put("type", "object")
              .putObject("properties");
        }
        if (parameter.defaultValue() != null) {
          setDefault(schema, parameter.defaultValue());
        }
        form.set(parameter.name(), schema);
        continue;
      }
      String in = parameter.source().name().toLowerCase(Locale.ROOT);
      ObjectNode entry = list.addObject().put("name", parameter.name()).put("in", in)
          .put("required", parameter.source() == WebAnnotations.Source.PATH || parameter.required());
      if (parameter.source() == WebAnnotations.Source.PATH) {
        // A variable that shares its segment has its expression inside the segment's: none of its own here.
        String pattern = pathVariables[i].segment() != null ? null : template.openApiPattern(pathVariables[i].key());
        if (pattern != null) {
          schema.put("pattern", pattern);
        }
      }
      if (parameter.defaultValue() != null) {
        setDefault(schema, parameter.defaultValue());
      }
      entry.set("schema", schema);
    }
    OpenApi.okResponse(operation, schemas.java(result));
  }

  @Override
  public String openApiPath() {
    String path = template.openApiPath();
    for (int i = 0; i < parameters.length; i++) {
      WebPaths.Variable variable = pathVariables[i];
      if (variable != null) {
        path = path.replace("{" + variable.key() + "}",
            variable.openApiSegment() != null ? variable.openApiSegment() : "{" + parameters[i].name() + "}");
      }
    }
    return path;
  }

  /** A default as its schema's type has it: a number, a boolean, else the text. */
  private static void setDefault(ObjectNode schema, String value) {
    String type = schema.path("type").asText("");
    try {
      switch (type) {
        case "integer" -> schema.put("default", Long.parseLong(value));
        case "number" -> schema.put("default", Double.parseDouble(value));
        case "boolean" -> schema.put("default", Boolean.parseBoolean(value));
        default -> schema.put("default", value);
      }
    } catch (NumberFormatException e) {
      schema.put("default", value);
    }
  }
}
