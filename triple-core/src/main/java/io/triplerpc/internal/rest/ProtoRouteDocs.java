package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;

/**
 * The OpenAPI description of a {@code google.api.http} route: the path's variables, the query parameters
 * of the fields neither the path nor the body binds (nested ones as {@code a.b}, as grpc-gateway's
 * OpenAPI generator lists them), the body's schema and the response's (or its {@code response_body} field's).
 */
final class ProtoRouteDocs implements RouteDocs {

  /** How deep nested messages are walked for query parameters: cycles stop here too. */
  private static final int MAX_DEPTH = 4;

  private final PathTemplate template;
  private final Message request;
  private final String body;
  private final List<String> bound;
  private final Message response;
  private final String responseBody;
  /** Whether the answer is a stream of messages, each a line of newline-delimited JSON. */
  private final boolean streaming;

  ProtoRouteDocs(PathTemplate template, Message request, String body, List<String> bound, Message response,
      String responseBody, boolean streaming) {
    this.streaming = streaming;
    this.template = template;
    this.request = request;
    this.body = body;
    this.bound = bound;
    this.response = response;
    this.responseBody = responseBody;
  }

  @Override
  public void describe(ObjectNode operation, OpenApiSchemas schemas) {
    ArrayNode parameters = operation.putArray("parameters");
    Descriptor type = request.getDescriptorForType();
    for (String fieldPath : template.fieldPaths()) {
      List<String> segments = template.openApiSegments(fieldPath);
      if (segments != null) {
        for (String segment : segments) {
          parameters.addObject().put("name", segment).put("in", "path").put("required", true)
              .put("description", "a segment of the field " + fieldPath + ": " + template.openApiPath())
              .putObject("schema").put("type", "string");
        }
        continue;
      }
      List<FieldDescriptor> fields = FieldValues.resolve(type, fieldPath);
      ObjectNode parameter = parameters.addObject().put("name", fieldPath).put("in", "path").put("required", true);
      FieldDescriptor last = fields.get(fields.size() - 1);
      describe(parameter, schemas, last);
      ObjectNode schema = schemas.single(last);
      String pattern = template.openApiPattern(fieldPath);
      if (pattern != null) {
        schema.put("pattern", pattern);
      }
      parameter.set("schema", schema);
    }
    if (!"*".equals(body)) {
      query(type, "", "", parameters, schemas, 0);
    }
    if (body != null) {
      ObjectNode content = operation.putObject("requestBody").put("required", true).putObject("content")
          .putObject("application/json");
      content.set("schema", body.equals("*") ? schemas.message(type) : schemas.field(type.findFieldByName(body)));
    }
    Descriptor responseType = response.getDescriptorForType();
    ObjectNode answer = responseBody == null ? schemas.message(responseType)
        : schemas.field(responseType.findFieldByName(responseBody));
    if (streaming) {
      OpenApi.streamResponse(operation, answer);
    } else {
      OpenApi.okResponse(operation, answer);
    }
  }

  @Override
  public String openApiPath() {
    return template.openApiPath();
  }

  /** Adds the query parameters of {@code type}'s fields: {@code protoPrefix} names them to the binding, {@code jsonPrefix} to clients. */
  private void query(Descriptor type, String protoPrefix, String jsonPrefix, ArrayNode parameters,
      OpenApiSchemas schemas, int depth) {
    for (FieldDescriptor field : type.getFields()) {
      String path = protoPrefix + field.getName();
      if (isBound(path)) {
        continue;
      }
      boolean message = field.getJavaType() == FieldDescriptor.JavaType.MESSAGE;
      if (message && !field.isRepeated() && !isScalarLike(field.getMessageType())) {
        if (depth < MAX_DEPTH) {
          query(field.getMessageType(), path + ".", jsonPrefix + field.getJsonName() + ".", parameters, schemas,
              depth + 1);
        }
        continue;
      }
      if (field.isMapField() || message && !isScalarLike(field.getMessageType())) {
        continue;
      }
      ObjectNode parameter = parameters.addObject().put("name", jsonPrefix + field.getJsonName()).put("in", "query");
      describe(parameter, schemas, field);
      parameter.set("schema", schemas.field(field));
    }
  }

  private static void describe(ObjectNode parameter, OpenApiSchemas schemas, FieldDescriptor field) {
    String comment = schemas.comment(field.getFullName());
    if (comment != null) {
      parameter.put("description", comment);
    }
  }

  /** The well-known types a query value can hold: its text forms. */
  private static boolean isScalarLike(Descriptor type) {
    String name = type.getFullName();
    return name.equals("google.protobuf.Timestamp") || name.equals("google.protobuf.Duration")
        || name.equals("google.protobuf.FieldMask") || name.endsWith("Value") && name.startsWith("google.protobuf.")
        && !name.equals("google.protobuf.Value");
  }

  private boolean isBound(String path) {
    for (String taken : bound) {
      if (path.equals(taken) || path.startsWith(taken + ".")) {
        return true;
      }
    }
    return false;
  }
}
