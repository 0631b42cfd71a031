package io.triplerpc.internal.rest;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.TypeRegistry;
import com.google.protobuf.util.JsonFormat;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.ConnectWire;

/**
 * Errors of REST calls as grpc-gateway writes them: {@code google.rpc.Status} in JSON, its {@code code}
 * the gRPC code's number, under the HTTP status of that code (google.rpc's mapping, Connect's too).
 */
public final class RestErrors {

  /** The error details a status may carry that are printed as JSON: google.rpc's own. */
  private static final JsonFormat.Printer DETAILS = JsonFormat.printer().omittingInsignificantWhitespace()
      .usingTypeRegistry(TypeRegistry.newBuilder().add(com.google.rpc.ErrorDetailsProto.getDescriptor().getMessageTypes())
          .build());

  private RestErrors() {}

  /** The HTTP status of an error with {@code code}. */
  public static int httpStatus(Status.Code code) {
    return ConnectWire.httpStatusOf(code);
  }

  /**
   * {@code {"code":5,"message":"...","details":[...]}}: every field written, as grpc-gateway's marshaler
   * does; a detail of a type other than google.rpc's error details is left out, since its JSON needs its
   * descriptor.
   */
  public static String json(Status status) {
    StringBuilder json = new StringBuilder(64).append("{\"code\":").append(status.code().value())
        .append(",\"message\":");
    ConnectWire.appendString(json, status.description() == null ? "" : status.description());
    json.append(",\"details\":[");
    String separator = "";
    for (Any detail : status.details()) {
      try {
        String printed = DETAILS.print(detail);
        json.append(separator).append(printed);
        separator = ",";
      } catch (InvalidProtocolBufferException unknownType) {
        // Not one of google.rpc's: left out (see above).
      }
    }
    return json.append("]}").toString();
  }
}
