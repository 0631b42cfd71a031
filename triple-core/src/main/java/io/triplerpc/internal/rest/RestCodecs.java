package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.triplerpc.serialization.MessageCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The codecs of a REST call: the request codec has the binding's reader build the method's request from
 * the body, the path's variables, the query and the headers; the protobuf response codec writes the
 * response, or its {@code response_body} field, as JSON.
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

  /**
   * The codec of a server-streaming binding's responses: each message as grpc-gateway streams it, one line of
   * newline-delimited JSON, {@code {"result":<the message, or its responseBody field>}}; one per binding.
   */
  static MessageCodec<Object> streamResponse(Message response, String responseBody, RestJson json) {
    return new StreamResponseCodec(new ResponseCodec(response, responseBody, json));
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
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) {
      throw new UnsupportedOperationException("A REST request is only read");
    }

    @Override
    public Object read(InputStream in) throws IOException {
      return rest.binding().reader().read(in, rest);
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
      // Printed into a StringBuilder and written as UTF-8 at once: an OutputStreamWriter per response (its
      // encoder and 8 KiB buffer) was a fifth of the REST server's CPU in the benchmark's profile.
      Message message = (Message) value;
      StringBuilder json = new StringBuilder(128);
      if (field == null) {
        this.json.printer.appendTo(message, json);
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !field.isRepeated()) {
        this.json.printer.appendTo((Message) message.getField(field), json);
      } else {
        // A scalar, repeated or map field: its JSON is what the whole message holds under its name.
        Message only = message.newBuilderForType().setField(field, message.getField(field)).build();
        JsonNode whole = MAPPER.readTree(this.json.printer.print(only));
        json.append(MAPPER.writeValueAsString(whole.get(field.getJsonName())));
      }
      out.write(json.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Object read(InputStream in) {
      throw new UnsupportedOperationException("A REST response is only written");
    }
  }

  private static final class StreamResponseCodec implements MessageCodec<Object> {
    private static final byte[] OPEN = "{\"result\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "}\n".getBytes(StandardCharsets.US_ASCII);

    private final ResponseCodec message;

    StreamResponseCodec(ResponseCodec message) {
      this.message = message;
    }

    @Override
    public String subtype() {
      return "json";
    }

    @Override
    public Class<?> messageType() {
      return message.messageType();
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
      out.write(OPEN);
      message.write(value, out);
      out.write(CLOSE);
    }

    @Override
    public Object read(InputStream in) {
      throw new UnsupportedOperationException("A REST response is only written");
    }
  }
}
