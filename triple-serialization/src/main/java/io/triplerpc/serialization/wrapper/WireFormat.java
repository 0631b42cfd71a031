package io.triplerpc.serialization.wrapper;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/** The little of the protobuf wire format the wrapper writers need beyond the generated classes. */
final class WireFormat {

  /** Tag of a length-delimited field 2: {@code args} of the request, {@code data} of the response. */
  static final int FIELD_2_TAG = 2 << 3 | 2;

  private WireFormat() {}

  /** Writes a length-delimited field 2 whose bytes are {@code bytes[offset, offset + length)}. */
  static void writeField2(OutputStream out, byte[] bytes, int offset, int length) throws IOException {
    out.write(FIELD_2_TAG);
    int value = length;
    while ((value & ~0x7f) != 0) {
      out.write((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.write(value);
    out.write(bytes, offset, length);
  }

  /** A reader of all of {@code source}'s remaining bytes, with no size limit but the transport's. */
  static CodedInputStream input(ByteBuffer source) {
    CodedInputStream input = CodedInputStream.newInstance(source);
    input.setSizeLimit(Integer.MAX_VALUE);
    return input;
  }

  /** An {@link IOException} that names the message and what was wrong with it. */
  static IOException malformed(String message, String where, InvalidProtocolBufferException e) {
    return new IOException("Malformed " + message + " for " + where + ": " + e.getMessage(), e);
  }
}
