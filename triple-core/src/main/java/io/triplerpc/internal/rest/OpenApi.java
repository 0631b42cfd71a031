package io.triplerpc.internal.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The OpenAPI 3.1 document of REST routes: one path item per route path, one operation per HTTP method
 * ({@code operationId} {@code Service_Method}, tagged with its service), the schemas of the messages and
 * types they carry, and every error as {@code google.rpc.Status} (the {@code default} response). The
 * {@code .proto} comments describe what they are written on, as grpc-gateway's OpenAPI generator uses them: a
 * service's its tag, a method's its operation (the first paragraph the summary, the rest the description,
 * when there are several), a message's, enum's or field's its schema.
 */
public final class OpenApi {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String STATUS = "google.rpc.Status";
  private static final java.util.regex.Pattern VARIABLE = java.util.regex.Pattern.compile("\\{([^}]+)}");

  private OpenApi() {}

  /**
   * The document of {@code bindings}, as UTF-8 JSON.
   *
   * @param comments the {@code .proto} comments of services, methods, messages, enums and fields, by full name
   * @param title the document's title (info.title)
   */
  public static byte[] document(List<HttpBinding> bindings, Map<String, String> comments, String title,
      String version) {
    ObjectNode document = JSON.createObjectNode().put("openapi", "3.1.0");
    document.putObject("info").put("title", title).put("version", version);
    com.fasterxml.jackson.databind.node.ArrayNode tags = document.putArray("tags");
    java.util.Set<String> tagged = new java.util.HashSet<>();
    ObjectNode paths = document.putObject("paths");
    OpenApiSchemas schemas = new OpenApiSchemas(comments);
    Map<String, Integer> operationIds = new HashMap<>();
    Map<String, String> byShape = new HashMap<>();
    for (HttpBinding binding : bindings) {
      String own = binding.docs().openApiPath();
      // Paths that differ in their variables' names only are one path to OpenAPI: the first names them.
      String path = byShape.computeIfAbsent(VARIABLE.matcher(own).replaceAll("{}"), shape -> own);
      ObjectNode item = paths.has(path) ? (ObjectNode) paths.get(path) : paths.putObject(path);
      String method = binding.httpMethod().toLowerCase(Locale.ROOT);
      if (item.has(method)) {
        // Two routes of one method and path (a rule and an annotation): the first serves, as routing does.
        continue;
      }
      String rpc = binding.rpcPath().toString().substring(1);
      String service = rpc.substring(0, rpc.indexOf('/'));
      String id = service.substring(service.lastIndexOf('.') + 1) + "_" + rpc.substring(rpc.indexOf('/') + 1)
          + binding.docs().operationIdSuffix();
      int seen = operationIds.merge(id, 1, Integer::sum);
      ObjectNode operation = item.putObject(method).put("operationId", seen == 1 ? id : id + seen);
      operation.putArray("tags").add(service);
      describe(operation, comments.get(service + "." + rpc.substring(rpc.indexOf('/') + 1)));
      if (tagged.add(service)) {
        ObjectNode tag = tags.addObject().put("name", service);
        String description = comments.get(service);
        if (description != null) {
          tag.put("description", description);
        }
      }
      binding.docs().describe(operation, schemas);
      if (!path.equals(own)) {
        renamePathParameters(operation, variables(own), variables(path));
      }
    }
    if (tags.isEmpty()) {
      document.remove("tags");
    }
    ObjectNode components = document.putObject("components");
    ObjectNode named = schemas.components();
    named.set(STATUS, statusSchema());
    components.set("schemas", named);
    try {
      return JSON.writeValueAsBytes(document);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write the OpenAPI document", e);
    }
  }

  /**
   * An operation's summary and description from its method's comment: with several paragraphs, the first is
   * the summary and the others the description; one paragraph is the description alone.
   */
  private static void describe(ObjectNode operation, String comment) {
    if (comment == null) {
      return;
    }
    int end = comment.indexOf("\n\n");
    if (end < 0) {
      operation.put("description", comment);
    } else {
      operation.put("summary", comment.substring(0, end).replace('\n', ' '));
      operation.put("description", comment.substring(end + 2).strip());
    }
  }

  private static List<String> variables(String path) {
    List<String> names = new java.util.ArrayList<>();
    java.util.regex.Matcher variable = VARIABLE.matcher(path);
    while (variable.find()) {
      names.add(variable.group(1));
    }
    return names;
  }

  /** Gives the operation's path parameters the names the shared path has, in order. */
  private static void renamePathParameters(ObjectNode operation, List<String> from, List<String> to) {
    for (com.fasterxml.jackson.databind.JsonNode parameter : operation.path("parameters")) {
      int at = from.indexOf(parameter.path("name").asText());
      if ("path".equals(parameter.path("in").asText()) && at >= 0) {
        // A segment's parameter says already which field it is part of.
        ((ObjectNode) parameter).put("name", to.get(at)).put("description",
            parameter.has("description") ? parameter.path("description").asText() : "the field " + from.get(at));
      }
    }
  }

  /** Sets the operation's responses: 200 with {@code schema}, any other with google.rpc.Status. */
  static void okResponse(ObjectNode operation, ObjectNode schema) {
    ObjectNode responses = operation.putObject("responses");
    responses.putObject("200").put("description", "OK").putObject("content").putObject("application/json")
        .set("schema", schema);
    responses.putObject("default").put("description", "An error: google.rpc.Status, under the HTTP status of its code")
        .putObject("content").putObject("application/json").putObject("schema")
        .put("$ref", "#/components/schemas/" + STATUS);
  }

  /**
   * Sets a server stream's responses as grpc-gateway's OpenAPI generator describes them: 200 with one line of
   * newline-delimited JSON per message, {@code {"result": schema}}, the last {@code {"error": google.rpc.Status}}
   * if the stream failed after it began; an error before its first message as {@link #okResponse}'s.
   */
  static void streamResponse(ObjectNode operation, ObjectNode schema) {
    okResponse(operation, JSON.createObjectNode());
    ObjectNode ok = (ObjectNode) operation.get("responses").get("200");
    ok.put("description", "A stream: each message a line of JSON (newline-delimited), {\"result\": ...}; a failure"
        + " after the first message ends it with a line {\"error\": google.rpc.Status}");
    ObjectNode line = JSON.createObjectNode().put("type", "object");
    ObjectNode properties = line.putObject("properties");
    properties.set("result", schema);
    properties.putObject("error").put("$ref", "#/components/schemas/" + STATUS);
    ((ObjectNode) ok.get("content").get("application/json")).set("schema", line);
  }

  private static ObjectNode statusSchema() {
    ObjectNode status = JSON.createObjectNode().put("type", "object");
    ObjectNode properties = status.putObject("properties");
    properties.putObject("code").put("type", "integer").put("format", "int32");
    properties.putObject("message").put("type", "string");
    ObjectNode details = properties.putObject("details").put("type", "array");
    ObjectNode any = details.putObject("items").put("type", "object");
    any.putObject("properties").putObject("@type").put("type", "string");
    any.put("additionalProperties", true);
    return status;
  }
}
