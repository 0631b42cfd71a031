package io.triplerpc.internal.wire;

import com.google.protobuf.Any;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Wire rules of the Connect protocol (connectrpc.com/docs/protocol), which Triple's curl-friendly
 * HTTP unary calls are: content types, headers, error codes as names and HTTP statuses, and the JSON
 * of errors and of the end of a stream.
 */
public final class ConnectWire {

  public static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
  public static final AsciiString APPLICATION_PROTO = AsciiString.cached("application/proto");
  public static final AsciiString APPLICATION_CONNECT_JSON = AsciiString.cached("application/connect+json");
  public static final AsciiString APPLICATION_CONNECT_PROTO = AsciiString.cached("application/connect+proto");
  public static final AsciiString CONNECT_PROTOCOL_VERSION = AsciiString.cached("connect-protocol-version");
  public static final AsciiString CONNECT_TIMEOUT_MS = AsciiString.cached("connect-timeout-ms");
  public static final AsciiString CONNECT_CONTENT_ENCODING = AsciiString.cached("connect-content-encoding");
  public static final AsciiString CONNECT_ACCEPT_ENCODING = AsciiString.cached("connect-accept-encoding");
  public static final AsciiString CONTENT_ENCODING = AsciiString.cached("content-encoding");
  public static final AsciiString ACCEPT_ENCODING = AsciiString.cached("accept-encoding");
  /** The prefix of a unary response's trailers, which travel as headers. */
  public static final String TRAILER_PREFIX = "trailer-";
  /** The flag of the message that ends a Connect stream (a JSON {@code EndStreamResponse}). */
  public static final int END_STREAM_FLAG = 0x02;

  private static final Base64.Encoder BASE64 = Base64.getEncoder().withoutPadding();

  private ConnectWire() {}

  /** The codec ({@code "json"} or {@code "proto"}) of a unary content type, or null when it is neither. */
  public static String unaryCodecOf(CharSequence contentType) {
    CharSequence type = mediaType(contentType);
    if (type == null) {
      return null;
    }
    if (AsciiString.contentEqualsIgnoreCase(type, APPLICATION_JSON)) {
      return "json";
    }
    if (AsciiString.contentEqualsIgnoreCase(type, APPLICATION_PROTO)) {
      return "proto";
    }
    return null;
  }

  /** The content type without parameters ({@code ;charset=...}), trimmed; null for null. */
  public static CharSequence mediaType(CharSequence contentType) {
    if (contentType == null) {
      return null;
    }
    int end = AsciiString.indexOf(contentType, ';', 0);
    return AsciiString.of(contentType.subSequence(0, end < 0 ? contentType.length() : end)).trim();
  }

  /**
   * Whether {@code mediaType} (no parameters) is JSON: {@code application/json}, or a type with JSON's structured
   * syntax suffix (RFC 6839), {@code application/merge-patch+json}, {@code application/vnd.acme.book+json}.
   */
  public static boolean isJson(CharSequence mediaType) {
    if (AsciiString.contentEqualsIgnoreCase(mediaType, APPLICATION_JSON)) {
      return true;
    }
    int length = mediaType.length();
    return length > "application/+json".length()
        && AsciiString.regionMatches(mediaType, true, 0, "application/", 0, "application/".length())
        && AsciiString.regionMatches(mediaType, true, length - "+json".length(), "+json", 0, "+json".length())
        && AsciiString.indexOf(mediaType, '/', "application/".length()) < 0;
  }

  /** The unary response content type for a codec. */
  public static AsciiString unaryContentTypeOf(String codec) {
    return "proto".equals(codec) ? APPLICATION_PROTO : APPLICATION_JSON;
  }

  /** The error code's name on the wire: {@code not_found} for NOT_FOUND, {@code canceled} for CANCELLED. */
  public static String codeName(Status.Code code) {
    return code == Status.Code.CANCELLED ? "canceled" : code.name().toLowerCase(Locale.ROOT);
  }

  /** The code a wire name stands for ({@code not_found}, {@code canceled}), or null for a name it does not know. */
  public static Status.Code codeOf(String name) {
    if (name == null) {
      return null;
    }
    if (name.equals("canceled")) {
      return Status.Code.CANCELLED;
    }
    for (Status.Code code : Status.Code.values()) {
      if (code != Status.Code.OK && code != Status.Code.CANCELLED && codeName(code).equals(name)) {
        return code;
      }
    }
    return null;
  }

  /**
   * The HTTP status of a unary error response with {@code code}, as the protocol maps them (google.rpc's
   * mapping: 400, 401, 403, 404, 409, 429, 499, 501, 503, 504, else 500).
   */
  public static int httpStatusOf(Status.Code code) {
    switch (code) {
      case OK:
        return 200;
      case INVALID_ARGUMENT:
      case FAILED_PRECONDITION:
      case OUT_OF_RANGE:
        return 400;
      case UNAUTHENTICATED:
        return 401;
      case PERMISSION_DENIED:
        return 403;
      case NOT_FOUND:
        return 404;
      case ALREADY_EXISTS:
      case ABORTED:
        return 409;
      case RESOURCE_EXHAUSTED:
        return 429;
      case CANCELLED:
        return 499;
      case UNIMPLEMENTED:
        return 501;
      case UNAVAILABLE:
        return 503;
      case DEADLINE_EXCEEDED:
        return 504;
      default:
        return 500;
    }
  }

  /**
   * The JSON of an error: {@code {"code":"not_found","message":"...","details":[{"type":"...","value":"..."}]}},
   * each detail's type its fully qualified message name and its value base64 without padding.
   */
  public static String errorJson(Status status) {
    StringBuilder json = new StringBuilder(64);
    appendError(json, status);
    return json.toString();
  }

  private static void appendError(StringBuilder json, Status status) {
    json.append("{\"code\":\"").append(codeName(status.code())).append('"');
    if (status.description() != null && !status.description().isEmpty()) {
      json.append(",\"message\":");
      appendString(json, status.description());
    }
    if (!status.details().isEmpty()) {
      json.append(",\"details\":[");
      String separator = "";
      for (Any detail : status.details()) {
        String url = detail.getTypeUrl();
        json.append(separator).append("{\"type\":");
        appendString(json, url.substring(url.lastIndexOf('/') + 1));
        json.append(",\"value\":\"").append(BASE64.encodeToString(detail.getValue().toByteArray())).append("\"}");
        separator = ",";
      }
      json.append(']');
    }
    json.append('}');
  }

  /**
   * The JSON of the message that ends a stream: {@code {"error":{...},"metadata":{"key":["value"]}}},
   * without {@code error} when {@code status} is OK and without {@code metadata} when there are no
   * trailers; binary trailers base64 without padding.
   */
  public static String endStreamJson(Status status, Metadata trailers) {
    StringBuilder json = new StringBuilder(64).append('{');
    String separator = "";
    if (!status.isOk()) {
      json.append("\"error\":");
      appendError(json, status);
      separator = ",";
    }
    Map<String, List<String>> values = textValues(trailers);
    if (!values.isEmpty()) {
      json.append(separator).append("\"metadata\":{");
      String entrySeparator = "";
      for (Map.Entry<String, List<String>> entry : values.entrySet()) {
        json.append(entrySeparator);
        appendString(json, entry.getKey());
        json.append(":[");
        String valueSeparator = "";
        for (String value : entry.getValue()) {
          json.append(valueSeparator);
          appendString(json, value);
          valueSeparator = ",";
        }
        json.append(']');
        entrySeparator = ",";
      }
      json.append('}');
    }
    return json.append('}').toString();
  }

  /** Every value of {@code metadata} as text by key, in order: binary ones base64 without padding. */
  public static Map<String, List<String>> textValues(Metadata metadata) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    if (metadata == null) {
      return values;
    }
    metadata.forEach((key, value) -> values.computeIfAbsent(key, k -> new ArrayList<>())
        .add(value instanceof byte[] ? BASE64.encodeToString((byte[]) value) : (String) value));
    return values;
  }

  /** Appends {@code text} as a JSON string. */
  public static void appendString(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"':
          json.append("\\\"");
          break;
        case '\\':
          json.append("\\\\");
          break;
        case '\n':
          json.append("\\n");
          break;
        case '\r':
          json.append("\\r");
          break;
        case '\t':
          json.append("\\t");
          break;
        default:
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
      }
    }
    json.append('"');
  }
}
