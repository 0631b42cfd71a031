package io.triplerpc.internal.wire;

import io.triplerpc.Status;

/** gRPC's mapping of HTTP statuses to codes, for responses that carry no {@code grpc-status}. */
public final class HttpStatusMapping {

  private HttpStatusMapping() {}

  /** The status for an HTTP response status that is not a gRPC answer. */
  public static Status statusForHttp(int httpStatus) {
    Status.Code code;
    switch (httpStatus) {
      case 400:
      case 431:
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
