package io.triplerpc.internal.wire;

import io.netty.util.AsciiString;
import io.triplerpc.Status;

/**
 * Wire rules of Triple HTTP unary calls ({@code POST /{service}/{method}} with a JSON or unframed
 * protobuf body, for curl): content types, the gRPC code to HTTP status mapping and the error body.
 */
public final class HttpUnary {

  public static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
  public static final AsciiString APPLICATION_JSON_UTF8 = AsciiString.cached("application/json; charset=utf-8");
  public static final AsciiString APPLICATION_PROTO = AsciiString.cached("application/proto");
  /** Selects the version of a service; kept in the call's metadata under this name. */
  public static final String SERVICE_VERSION = "tri-service-version";
  /** Selects the group of a service; kept in the call's metadata under this name. */
  public static final String SERVICE_GROUP = "tri-service-group";

  private HttpUnary() {}

  /**
   * The codec subtype ({@code "json"} or {@code "proto"}) a request content type selects, or null when
   * it is neither. Parameters such as {@code charset} are ignored.
   */
  public static String subtypeOf(CharSequence contentType) {
    if (contentType == null) {
      return null;
    }
    int end = contentType.length();
    for (int i = 0; i < end; i++) {
      if (contentType.charAt(i) == ';') {
        end = i;
        break;
      }
    }
    CharSequence type = AsciiString.of(contentType.subSequence(0, end)).trim();
    if (AsciiString.contentEqualsIgnoreCase(type, APPLICATION_JSON)) {
      return "json";
    }
    if (AsciiString.contentEqualsIgnoreCase(type, APPLICATION_PROTO)) {
      return "proto";
    }
    return null;
  }

  /** The response content type for a codec subtype. */
  public static AsciiString contentTypeOf(String subtype) {
    return "proto".equals(subtype) ? APPLICATION_PROTO : APPLICATION_JSON_UTF8;
  }

  /**
   * The HTTP status that answers a call ending with {@code code}: the mapping of Google's API design
   * guide (google.rpc.Code), with UNIMPLEMENTED as 404 since for a curl user it means "no such method".
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
      case UNIMPLEMENTED:
        return 404;
      case ALREADY_EXISTS:
      case ABORTED:
        return 409;
      case RESOURCE_EXHAUSTED:
        return 429;
      case CANCELLED:
        return 499;
      case UNAVAILABLE:
        return 503;
      case DEADLINE_EXCEEDED:
        return 504;
      default:
        return 500;
    }
  }

  /** The JSON error body: {@code {"code":"NOT_FOUND","status":5,"message":"..."}}. */
  public static String errorBody(Status status) {
    StringBuilder json = new StringBuilder(64)
        .append("{\"code\":\"").append(status.code().name())
        .append("\",\"status\":").append(status.code().value())
        .append(",\"message\":\"");
    String message = status.description() != null ? status.description() : status.code().name();
    for (int i = 0; i < message.length(); i++) {
      char c = message.charAt(i);
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
    return json.append("\"}\n").toString();
  }
}
