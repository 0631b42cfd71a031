package io.triplerpc.internal.wire;

import io.netty.util.AsciiString;

/** Header names and values of the gRPC HTTP/2 protocol, as constants so no call builds them. */
public final class GrpcHeaders {

  public static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
  public static final AsciiString TE = AsciiString.cached("te");
  public static final AsciiString USER_AGENT = AsciiString.cached("user-agent");
  public static final AsciiString GRPC_TIMEOUT = AsciiString.cached("grpc-timeout");
  public static final AsciiString GRPC_ENCODING = AsciiString.cached("grpc-encoding");
  public static final AsciiString GRPC_ACCEPT_ENCODING = AsciiString.cached("grpc-accept-encoding");
  public static final AsciiString GRPC_STATUS = AsciiString.cached("grpc-status");
  public static final AsciiString GRPC_MESSAGE = AsciiString.cached("grpc-message");
  public static final AsciiString GRPC_STATUS_DETAILS_BIN = AsciiString.cached("grpc-status-details-bin");

  public static final AsciiString APPLICATION_GRPC = AsciiString.cached("application/grpc");
  public static final AsciiString APPLICATION_GRPC_PROTO = AsciiString.cached("application/grpc+proto");
  public static final AsciiString APPLICATION_GRPC_JSON = AsciiString.cached("application/grpc+json");
  public static final AsciiString TRAILERS = AsciiString.cached("trailers");
  public static final AsciiString POST = AsciiString.cached("POST");
  public static final AsciiString HTTP = AsciiString.cached("http");
  public static final AsciiString HTTPS = AsciiString.cached("https");
  public static final AsciiString STATUS_200 = AsciiString.cached("200");
  public static final AsciiString USER_AGENT_VALUE = AsciiString.cached("triple-java/0.1");

  private static final String[] KNOWN_CODECS = {"proto", "json"};

  /** The 5-byte prefix of every gRPC message: a flags byte and a 4-byte big-endian length. */
  public static final int MESSAGE_HEADER_LENGTH = 5;

  private GrpcHeaders() {}

  /** Whether {@code contentType} is a gRPC one: {@code application/grpc}, optionally {@code +subtype} or {@code ;params}. */
  public static boolean isGrpcContentType(CharSequence contentType) {
    if (contentType == null) {
      return false;
    }
    int n = APPLICATION_GRPC.length();
    if (contentType.length() < n || !AsciiString.regionMatches(contentType, true, 0, APPLICATION_GRPC, 0, n)) {
      return false;
    }
    if (contentType.length() == n) {
      return true;
    }
    char next = contentType.charAt(n);
    return next == '+' || next == ';';
  }

  /**
   * The codec subtype of a content type of the form {@code type+subtype;params} ({@code "json"} of
   * {@code application/grpc+json}), lower case; null when it names none.
   */
  public static String codecOf(CharSequence contentType) {
    if (contentType == null) {
      return null;
    }
    int plus = AsciiString.indexOf(contentType, '+', 0);
    if (plus < 0) {
      return null;
    }
    int end = AsciiString.indexOf(contentType, ';', plus);
    if (end < 0) {
      end = contentType.length();
    }
    int start = plus + 1;
    while (end > start && contentType.charAt(end - 1) == ' ') {
      end--;
    }
    // The two codecs every call names, without building a string on each call.
    for (String known : KNOWN_CODECS) {
      if (end - start == known.length() && AsciiString.regionMatches(contentType, true, start, known, 0, known.length())) {
        return known;
      }
    }
    return contentType.subSequence(start, end).toString().trim().toLowerCase(java.util.Locale.ROOT);
  }


  /**
   * Whether a header is reserved for the transport (pseudo-headers, HTTP/2 connection headers, and the
   * gRPC ones the protocol owns), so it never appears in application {@code Metadata}.
   */
  public static boolean isReserved(CharSequence name) {
    if (name.length() == 0 || name.charAt(0) == ':') {
      return true;
    }
    return AsciiString.contentEquals(name, CONTENT_TYPE)
        || AsciiString.contentEquals(name, TE)
        || AsciiString.contentEquals(name, GRPC_TIMEOUT)
        || AsciiString.contentEquals(name, GRPC_ENCODING)
        || AsciiString.contentEquals(name, GRPC_ACCEPT_ENCODING)
        || AsciiString.contentEquals(name, GRPC_STATUS)
        || AsciiString.contentEquals(name, GRPC_MESSAGE)
        || AsciiString.contentEquals(name, "connection")
        || AsciiString.contentEquals(name, "host");
  }
}
