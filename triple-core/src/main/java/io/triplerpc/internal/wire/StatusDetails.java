package io.triplerpc.internal.wire;

import com.google.protobuf.Any;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.InvalidProtocolBufferException;
import io.triplerpc.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A status as {@code google.rpc.Status} ({@code code = 1}, {@code message = 2}, {@code repeated Any
 * details = 3}), the form gRPC carries in {@code grpc-status-details-bin}. Written by hand: the message
 * has three fields, and the generated class lives in a library (common protos) Triple need not carry.
 */
public final class StatusDetails {

  private static final int CODE = 1;
  private static final int MESSAGE = 2;
  private static final int DETAILS = 3;

  private StatusDetails() {}

  /** {@code status} as a serialized {@code google.rpc.Status}. */
  public static byte[] encode(Status status) {
    int size = 0;
    if (status.code().value() != 0) {
      size += CodedOutputStream.computeInt32Size(CODE, status.code().value());
    }
    if (status.description() != null && !status.description().isEmpty()) {
      size += CodedOutputStream.computeStringSize(MESSAGE, status.description());
    }
    for (Any detail : status.details()) {
      size += CodedOutputStream.computeMessageSize(DETAILS, detail);
    }
    byte[] bytes = new byte[size];
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      if (status.code().value() != 0) {
        out.writeInt32(CODE, status.code().value());
      }
      if (status.description() != null && !status.description().isEmpty()) {
        out.writeString(MESSAGE, status.description());
      }
      for (Any detail : status.details()) {
        out.writeMessage(DETAILS, detail);
      }
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("Sized wrongly: " + status, e);
    }
    return bytes;
  }

  /**
   * The details of a serialized {@code google.rpc.Status}; its code and message are left to the
   * headers that carry them in plain text.
   *
   * @throws InvalidProtocolBufferException if {@code bytes} is not a {@code google.rpc.Status}
   */
  public static List<Any> decodeDetails(byte[] bytes) throws InvalidProtocolBufferException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    List<Any> details = new ArrayList<>();
    try {
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == ((DETAILS << 3) | 2)) {
          details.add(in.readMessage(Any.parser(), ExtensionRegistryLite.getEmptyRegistry()));
        } else if (!in.skipField(tag)) {
          break;
        }
      }
    } catch (InvalidProtocolBufferException e) {
      throw e;
    } catch (IOException e) {
      throw new InvalidProtocolBufferException(e);
    }
    return details;
  }
}
