package io.triplerpc.internal.wire;

import io.triplerpc.Status;

/**
 * gRPC's mapping of HTTP statuses to codes, for responses that carry no {@code grpc-status}: the table
 * of its "HTTP to gRPC Status Code Mapping" and nothing else (431 is UNKNOWN there, as the Connect
 * conformance suite checks; grpc-java alone makes it INTERNAL).
 */
public final class HttpStatusMapping {

  private HttpStatusMapping() {}

  /** The status for an HTTP response status that is not a gRPC answer. */
  public static Status statusForHttp(int httpStatus) {
    Status.Code code;
    switch (httpStatus) {
      case 400:
        code = Status.Code.INTERNAL;
        break;
      case 401:
        code = Status.Code.UNAUTHENTICATED;
        break;
      case 403:
        code = Status.Code.PERMISSION_DENIED;
        break;
      case 404:
        code = Status.Code.UNIMPLEMENTED;
        break;
      case 429:
      case 502:
      case 503:
      case 504:
        code = Status.Code.UNAVAILABLE;
        break;
      default:
        code = Status.Code.UNKNOWN;
    }
    return code.toStatus().withDescription("HTTP status code " + httpStatus);
  }
}
