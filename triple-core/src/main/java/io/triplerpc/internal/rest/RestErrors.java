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

  /**
   * The printer of the error details a status may carry that are printed as JSON, google.rpc's own; null when
   * their classes (proto-google-common-protos, an optional dependency) are not on the class path: then no
   * detail is printed, and the errors of annotated REST routes, which need nothing of it, are still written.
   */
  private static final JsonFormat.Printer DETAILS = detailsPrinter();

  private RestErrors() {}

  private static JsonFormat.Printer detailsPrinter() {
    try {
      Class.forName("com.google.rpc.ErrorDetailsProto", false, RestErrors.class.getClassLoader());
    } catch (ClassNotFoundException absent) {
      return null;
    }
    return JsonFormat.printer().omittingInsignificantWhitespace()
        .usingTypeRegistry(TypeRegistry.newBuilder()
            .add(com.google.rpc.ErrorDetailsProto.getDescriptor().getMessageTypes()).build());
  }

  /** The HTTP status of an error with {@code code}. */
  public static int httpStatus(Status.Code code) {
    return ConnectWire.httpStatusOf(code);
  }

  /**
   * The line that ends a server stream with an error, as grpc-gateway writes it:
   * {@code {"error":{"code":5,"message":"...","details":[]}}} and a newline.
   */
  public static String streamErrorLine(Status status) {
    return "{\"error\":" + json(status) + "}\n";
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
    for (Any detail : DETAILS == null ? java.util.List.<Any>of() : status.details()) {
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
