package io.triplerpc.serialization.protobuf;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.Message;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.triplerpc.serialization.MessageCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Codec of one generated protobuf message type. Writes go straight into the target buffer with an
 * exact size computed first, so no intermediate byte array is made.
 */
final class ProtobufCodec<T> implements MessageCodec<T> {

  private final Class<T> type;
  private final MessageLite defaultInstance;
  private final Parser<? extends MessageLite> parser;

  ProtobufCodec(Class<T> type, MessageLite defaultInstance) {
    this.type = type;
    this.defaultInstance = defaultInstance;
    this.parser = defaultInstance.getParserForType();
  }

  @Override
  public String subtype() {
    return "proto";
  }

  @Override
  public Class<?> messageType() {
    return type;
  }

  @Override
  public int serializedSize(T value) {
    return ((MessageLite) value).getSerializedSize();
  }

  @Override
  public void write(T value, OutputStream out) throws IOException {
    ((MessageLite) value).writeTo(out);
  }

  @Override
  public void write(T value, ByteBuffer target) throws IOException {
    CodedOutputStream output = CodedOutputStream.newInstance(target);
    ((MessageLite) value).writeTo(output);
    // Moves the buffer's position past what was written, as the contract says.
    output.flush();
    output.checkNoSpaceLeft();
  }

  @Override
  public T read(InputStream in) throws IOException {
    return type.cast(parser.parseFrom(in, ExtensionRegistryLite.getEmptyRegistry()));
  }

  @Override
  public T read(ByteBuffer source) throws IOException {
    CodedInputStream input = CodedInputStream.newInstance(source);
    // Messages larger than protobuf's 64 MiB default are bounded by the transport's own limit.
    input.setSizeLimit(Integer.MAX_VALUE);
    MessageLite message = parser.parseFrom(input, ExtensionRegistryLite.getEmptyRegistry());
    return type.cast(message);
  }

  /**
   * Protobuf's decoder over the pieces in place when all are direct buffers (as sockets fill them),
   * else its stream decoder over them. Either way a large {@code bytes} or {@code string} field is
   * copied once, into its own value.
   */
  @Override
  public T read(ByteBuffer[] pieces) throws IOException {
    CodedInputStream input = CodedInputStream.newInstance(Arrays.asList(pieces));
    input.setSizeLimit(Integer.MAX_VALUE);
    return type.cast(parser.parseFrom(input, ExtensionRegistryLite.getEmptyRegistry()));
  }

  /** {@code "json"}: protobuf's canonical JSON mapping, for full-runtime messages (lite ones have no descriptors). */
  @Override
  public MessageCodec<T> withSubtype(String subtype) {
    if (ProtobufJsonCodec.SUBTYPE.equals(subtype) && defaultInstance instanceof Message) {
      return new ProtobufJsonCodec<>(type, (Message) defaultInstance);
    }
    return MessageCodec.super.withSubtype(subtype);
  }

  @Override
  public String toString() {
    return "ProtobufCodec{" + type.getName() + '}';
  }
}
