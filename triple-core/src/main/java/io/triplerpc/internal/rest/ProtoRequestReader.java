package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.FieldMask;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.triplerpc.serialization.MalformedMessageException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Builds a protobuf request as {@code google.api.http} and grpc-gateway do: the body first (the whole
 * message, or one field), then the path's variables, then query parameters for the fields neither binds
 * (none when the body is the whole request). Immutable; one per rule.
 */
final class ProtoRequestReader implements RestRequestReader {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String httpMethod;
  private final Message request;
  /** Null for none, "*" for the whole request, or the body's top-level field. */
  private final String body;
  private final FieldDescriptor bodyField;
  /** The field paths (proto names) that the path's variables and the body bind. */
  private final List<String> bound;
  private final RestJson json;

  ProtoRequestReader(String httpMethod, Message request, String body, List<String> bound, RestJson json) {
    this.httpMethod = httpMethod;
    this.request = request;
    this.body = body;
    this.bodyField = body == null || body.equals("*") ? null : request.getDescriptorForType().findFieldByName(body);
    this.bound = List.copyOf(bound);
    this.json = json;
  }

  @Override
  public Object read(InputStream in, RestRequest rest) throws IOException {
    Message.Builder builder = request.newBuilderForType();
    Descriptor type = request.getDescriptorForType();
    try {
      readBody(in, builder);
      for (Map.Entry<String, String> variable : rest.pathVariables().entrySet()) {
        List<FieldDescriptor> fields = FieldValues.resolve(type, variable.getKey());
        FieldValues.set(builder, fields, List.of(variable.getValue()), variable.getKey());
      }
      if (rest.rawQuery() != null && !"*".equals(body)) {
        readQuery(rest.rawQuery(), builder);
      }
    } catch (IllegalArgumentException e) {
      throw new MalformedMessageException(e.getMessage(), e);
    }
    return builder.build();
  }

  private void readBody(InputStream in, Message.Builder builder) throws IOException {
    if (body == null) {
      return;
    }
    byte[] bytes = in.readAllBytes();
    if (isBlank(bytes)) {
      return;
    }
    InputStream whole = bodyField == null ? new ByteArrayInputStream(bytes) : new SequenceInputStream(Collections.enumeration(
        List.of(new ByteArrayInputStream(("{\"" + bodyField.getJsonName() + "\":").getBytes(StandardCharsets.UTF_8)),
            new ByteArrayInputStream(bytes), new ByteArrayInputStream(new byte[] {'}'}))));
    Reader reader = new InputStreamReader(whole, StandardCharsets.UTF_8);
    try {
      json.parser.merge(reader, builder);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new MalformedMessageException("Malformed JSON body for " + (bodyField == null
          ? request.getDescriptorForType().getFullName() : "field " + bodyField.getName()) + ": " + e.getMessage(), e);
    }
    if (bodyField != null && httpMethod.equals("PATCH")) {
      fillUpdateMask(bytes, builder);
    }
  }

  /**
   * A PATCH whose body is one message field, of a request with an {@code update_mask} FieldMask the
   * client left empty: the mask names the fields the body holds, as grpc-gateway fills it (its
   * {@code allow_patch_feature}, on by default), so that a partial update touches only those.
   */
  private void fillUpdateMask(byte[] bytes, Message.Builder builder) {
    FieldDescriptor mask = builder.getDescriptorForType().findFieldByName("update_mask");
    if (mask == null || mask.isRepeated() || mask.getJavaType() != FieldDescriptor.JavaType.MESSAGE
        || !mask.getMessageType().getFullName().equals("google.protobuf.FieldMask")
        || bodyField.getJavaType() != FieldDescriptor.JavaType.MESSAGE || bodyField.isRepeated()
        || builder.hasField(mask) && ((FieldMask) builder.getField(mask)).getPathsCount() > 0) {
      return;
    }
    JsonNode tree;
    try {
      tree = MAPPER.readTree(bytes);
    } catch (IOException e) {
      throw new IllegalArgumentException("Malformed JSON body: " + e.getMessage(), e);
    }
    List<String> paths = new ArrayList<>();
    FieldMasks.collect(tree, bodyField.getMessageType(), "", paths);
    Collections.sort(paths);
    builder.setField(mask, FieldMask.newBuilder().addAllPaths(paths).build());
  }

  static boolean isBlank(byte[] body) {
    for (byte b : body) {
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return true;
  }

  private void readQuery(String rawQuery, Message.Builder builder) {
    Descriptor type = request.getDescriptorForType();
    for (Map.Entry<String, List<String>> parameter : QueryParameters.parse(rawQuery).entrySet()) {
      String key = parameter.getKey();
      List<String> values = parameter.getValue();
      int open = key.indexOf('[');
      if (open > 0 && key.endsWith("]")) {
        // name[key]=value: a map entry, as grpc-gateway reads it.
        List<String> entry = new ArrayList<>();
        entry.add(key.substring(open + 1, key.length() - 1));
        entry.addAll(values);
        values = entry;
        key = key.substring(0, open);
      }
      List<FieldDescriptor> fields = FieldValues.resolve(type, key);
      if (fields == null || isBound(fields)) {
        // An unknown parameter is ignored (grpc-gateway logs it), and one the path or body binds is theirs.
        continue;
      }
      FieldValues.set(builder, fields, values, key);
    }
  }

  /** Whether a path the path or body binds is {@code fields}' path or one of its prefixes. */
  private boolean isBound(List<FieldDescriptor> fields) {
    StringBuilder path = new StringBuilder();
    for (FieldDescriptor field : fields) {
      if (path.length() > 0) {
        path.append('.');
      }
      path.append(field.getName());
      if (bound.contains(path.toString())) {
        return true;
      }
    }
    return false;
  }
}
