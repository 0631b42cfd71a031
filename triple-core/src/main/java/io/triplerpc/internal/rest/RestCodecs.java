package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.MessageCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.SequenceInputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The codecs of a REST call: the request codec builds the method's request from the body, the path's
 * variables and the query, as {@code google.api.http} and grpc-gateway do (body first, then the path,
 * then query parameters for the fields neither binds; none when the body is the whole request); the
 * response codec writes the response, or its {@code response_body} field, as JSON.
 */
public final class RestCodecs {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private RestCodecs() {}

  /** The codec that reads the request of {@code rest}: one per call, since it holds the call's path and query. */
  public static MessageCodec<Object> request(RestRequest rest) {
    return new RequestCodec(rest);
  }

  /**
   * The codec that writes responses of {@code response}'s type, or their {@code responseBody} field (null
   * for the whole); one per binding.
   */
  static MessageCodec<Object> response(Message response, String responseBody, RestJson json) {
    return new ResponseCodec(response, responseBody, json);
  }

  private static final class RequestCodec implements MessageCodec<Object> {
    private final RestRequest rest;

    RequestCodec(RestRequest rest) {
      this.rest = rest;
    }

    @Override
    public String subtype() {
      return "json";
    }

    @Override
    public Class<?> messageType() {
      return rest.binding().request().getClass();
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) {
      throw new UnsupportedOperationException("A REST request is only read");
    }

    @Override
    public Object read(InputStream in) throws IOException {
      HttpBinding binding = rest.binding();
      Message.Builder request = binding.request().newBuilderForType();
      try {
        readBody(in, binding, request);
        for (Map.Entry<String, String> variable : rest.pathVariables().entrySet()) {
          List<FieldDescriptor> fields = FieldValues.resolve(binding.requestType(), variable.getKey());
          FieldValues.set(request, fields, List.of(variable.getValue()), variable.getKey());
        }
        if (rest.rawQuery() != null && !"*".equals(binding.body())) {
          readQuery(rest.rawQuery(), binding, request);
        }
      } catch (IllegalArgumentException e) {
        throw new MalformedMessageException(e.getMessage(), e);
      }
      return request.build();
    }

    private static void readBody(InputStream in, HttpBinding binding, Message.Builder request) throws IOException {
      if (binding.body() == null) {
        return;
      }
      byte[] body = in.readAllBytes();
      if (isBlank(body)) {
        return;
      }
      FieldDescriptor field = binding.bodyField();
      InputStream json = field == null ? new ByteArrayInputStream(body) : new SequenceInputStream(Collections.enumeration(
          List.of(new ByteArrayInputStream(("{\"" + field.getJsonName() + "\":").getBytes(StandardCharsets.UTF_8)),
              new ByteArrayInputStream(body), new ByteArrayInputStream(new byte[] {'}'}))));
      Reader reader = new InputStreamReader(json, StandardCharsets.UTF_8);
      try {
        binding.json().parser.merge(reader, request);
      } catch (InvalidProtocolBufferException | RuntimeException e) {
        throw new MalformedMessageException("Malformed JSON body for " + (field == null
            ? binding.requestType().getFullName() : "field " + field.getName()) + ": " + e.getMessage(), e);
      }
      if (field != null && binding.httpMethod().equals("PATCH")) {
        fillUpdateMask(body, field, request);
      }
    }

    /**
     * A PATCH whose body is one message field, of a request with an {@code update_mask} FieldMask the
     * client left empty: the mask names the fields the body holds, as grpc-gateway fills it (its
     * {@code allow_patch_feature}, on by default), so that a partial update touches only those.
     */
    private static void fillUpdateMask(byte[] body, FieldDescriptor bodyField, Message.Builder request) {
      FieldDescriptor mask = request.getDescriptorForType().findFieldByName("update_mask");
      if (mask == null || mask.isRepeated() || mask.getJavaType() != FieldDescriptor.JavaType.MESSAGE
          || !mask.getMessageType().getFullName().equals("google.protobuf.FieldMask")
          || bodyField.getJavaType() != FieldDescriptor.JavaType.MESSAGE || bodyField.isRepeated()
          || request.hasField(mask) && ((com.google.protobuf.FieldMask) request.getField(mask)).getPathsCount() > 0) {
        return;
      }
      JsonNode json;
      try {
        json = MAPPER.readTree(body);
      } catch (IOException e) {
        throw new IllegalArgumentException("Malformed JSON body: " + e.getMessage(), e);
      }
      List<String> paths = new ArrayList<>();
      FieldMasks.collect(json, bodyField.getMessageType(), "", paths);
      Collections.sort(paths);
      request.setField(mask, com.google.protobuf.FieldMask.newBuilder().addAllPaths(paths).build());
    }

    private static boolean isBlank(byte[] body) {
      for (byte b : body) {
        if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
          return false;
        }
      }
      return true;
    }

    private static void readQuery(String rawQuery, HttpBinding binding, Message.Builder request) {
      Descriptor type = binding.requestType();
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
        if (fields == null || isBound(fields, binding.boundByPathOrBody())) {
          // An unknown parameter is ignored (grpc-gateway logs it), and one the path or body binds is theirs.
          continue;
        }
        FieldValues.set(request, fields, values, key);
      }
    }

    /** Whether a path the path or body binds is {@code fields}' path or one of its prefixes. */
    private static boolean isBound(List<FieldDescriptor> fields, List<String> bound) {
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

  private static final class ResponseCodec implements MessageCodec<Object> {
    private final Message response;
    private final RestJson json;
    private final FieldDescriptor field;

    ResponseCodec(Message response, String responseBody, RestJson json) {
      this.response = response;
      this.json = json;
      this.field = responseBody == null ? null : response.getDescriptorForType().findFieldByName(responseBody);
    }

    @Override
    public String subtype() {
      return "json";
    }

    @Override
    public Class<?> messageType() {
      return response.getClass();
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
      Message message = (Message) value;
      Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
      if (field == null) {
        json.printer.appendTo(message, writer);
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !field.isRepeated()) {
        json.printer.appendTo((Message) message.getField(field), writer);
      } else {
        // A scalar, repeated or map field: its JSON is what the whole message holds under its name.
        Message only = message.newBuilderForType().setField(field, message.getField(field)).build();
        JsonNode whole = MAPPER.readTree(json.printer.print(only));
        writer.write(MAPPER.writeValueAsString(whole.get(field.getJsonName())));
      }
      writer.flush();
    }

    @Override
    public Object read(InputStream in) {
      throw new UnsupportedOperationException("A REST response is only written");
    }
  }
}
