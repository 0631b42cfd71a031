package io.triplerpc.transport.netty.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.HttpStatusMapping;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Reads what a Connect server answers: its JSON errors and ends of stream, and unary trailers. */
final class ConnectResponses {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ConnectResponses() {}

  /** The outcome a stream's end-of-stream message carries: the error (OK without one) and the trailers. */
  record End(Status status, Metadata trailers) {}

  /**
   * The status of a unary error response: the JSON error in {@code body} when there is one, else the
   * code of {@code httpStatus}.
   */
  static Status unaryError(int httpStatus, byte[] body) {
    Status byHttp = HttpStatusMapping.statusForHttp(httpStatus);
    try {
      JsonNode error = JSON.readTree(body);
      if (error != null && error.isObject()) {
        return statusOf(error, byHttp.code());
      }
    } catch (IOException e) {
      // Not JSON: the HTTP status speaks.
    }
    return byHttp;
  }

  /**
   * The end-of-stream message of a Connect stream.
   *
   * @throws IOException if it is not JSON of an end-of-stream message
   */
  static End endOfStream(byte[] json) throws IOException {
    JsonNode end = JSON.readTree(json);
    if (end == null || !end.isObject()) {
      throw new IOException("The end-of-stream message is not a JSON object");
    }
    Status status = Status.OK;
    JsonNode error = end.get("error");
    if (error != null && !error.isNull()) {
      status = statusOf(error, Status.Code.UNKNOWN);
    }
    Metadata trailers = new Metadata();
    JsonNode metadata = end.get("metadata");
    if (metadata != null && metadata.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> fields = metadata.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        for (JsonNode value : field.getValue()) {
          put(trailers, field.getKey(), value.asText());
        }
      }
    }
    return new End(status, trailers);
  }

  /** The status of a JSON error object; {@code otherwise} when it names no code this client knows. */
  private static Status statusOf(JsonNode error, Status.Code otherwise) {
    Status.Code code = ConnectWire.codeOf(error.path("code").asText(null));
    Status status = (code != null ? code : otherwise).toStatus();
    JsonNode message = error.get("message");
    if (message != null && message.isTextual() && !message.asText().isEmpty()) {
      status = status.withDescription(message.asText());
    }
    JsonNode details = error.get("details");
    if (details != null && details.isArray()) {
      List<Any> anys = new ArrayList<>();
      for (JsonNode detail : details) {
        String type = detail.path("type").asText("");
        byte[] value = decodeBase64(detail.path("value").asText(""));
        anys.add(Any.newBuilder().setTypeUrl("type.googleapis.com/" + type).setValue(ByteString.copyFrom(value)).build());
      }
      status = status.withDetails(anys);
    }
    return status;
  }

  /** A unary response's metadata: its headers, and its trailers, sent as {@code trailer-} headers. */
  record UnaryMetadata(Metadata headers, Metadata trailers) {}

  /** Splits a unary response's head into its headers and its trailers (the prefix removed). */
  static UnaryMetadata split(Http2Headers head) {
    Metadata headers = new Metadata();
    Metadata trailers = new Metadata();
    GrpcHttp2Headers.toMetadata(head).forEach((key, value) -> {
      if (key.startsWith(ConnectWire.TRAILER_PREFIX) && key.length() > ConnectWire.TRAILER_PREFIX.length()) {
        copy(trailers, key.substring(ConnectWire.TRAILER_PREFIX.length()), value);
      } else if (!key.startsWith(ConnectWire.TRAILER_PREFIX)) {
        copy(headers, key, value);
      }
    });
    return new UnaryMetadata(headers, trailers);
  }

  private static void copy(Metadata into, String key, Object value) {
    if (value instanceof byte[]) {
      into.put(key, (byte[]) value);
    } else {
      into.put(key, (String) value);
    }
  }

  private static void put(Metadata into, String key, String value) {
    try {
      if (Metadata.isBinaryKey(key)) {
        into.put(key, decodeBase64(value));
      } else {
        into.put(key, value);
      }
    } catch (IllegalArgumentException e) {
      // A key or value the metadata cannot hold: dropped, as a malformed header would be.
    }
  }

  /** Base64, standard or URL-safe, padded or not. */
  private static byte[] decodeBase64(String text) {
    String standard = text.replace('-', '+').replace('_', '/');
    return Base64.getDecoder().decode(standard.replace("=", ""));
  }
}
