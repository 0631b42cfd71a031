package io.triplerpc.serialization.wrapper;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.triplerpc.serialization.object.ObjectSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;

/**
 * What the request's and the response's wrapper codecs share: the serializations a method accepts, the
 * encoded {@code serializeType} field of each, the choice of the one to write or read, and the parse of
 * the wrapper message. A subclass serializes its values and decodes the rest of its message.
 *
 * @param <T> the type of the values
 * @param <W> the generated wrapper message
 */
abstract class AbstractWrapperCodec<T, W> implements WrapperCodec<T> {

  /** Names the method in messages. */
  final String where;
  final Accepted accepted;
  /** The encoded field 1, {@code serializeType}, of each accepted serialization; it comes first. */
  final byte[][] serializeTypeFields;
  /** The wrapper message's name, for messages. */
  private final String messageName;

  /** @param serializeTypeField encodes a wrapper holding only a {@code serializeType} */
  AbstractWrapperCodec(String where, Accepted accepted, String messageName,
      Function<String, byte[]> serializeTypeField) {
    this.where = where;
    this.accepted = accepted;
    this.messageName = messageName;
    this.serializeTypeFields = new byte[accepted.size()][];
    for (int s = 0; s < accepted.size(); s++) {
      serializeTypeFields[s] = serializeTypeField.apply(accepted.get(s).wireName());
    }
  }

  /** Writes {@code value} in the accepted serialization at index {@code serialization}. */
  abstract void write(T value, int serialization, OutputStream out) throws IOException;

  abstract W parse(InputStream in) throws IOException;

  abstract W parse(CodedInputStream in) throws IOException;

  /** The value {@code wrapper} carries, read in the serialization it names. */
  abstract InSerialization<T> decode(W wrapper) throws IOException;

  @Override
  public String subtype() {
    return WrapperCodecs.SUBTYPE;
  }

  @Override
  public List<ObjectSerialization> serializations() {
    return accepted.asList();
  }

  @Override
  public int serializedSize(T value) {
    return -1;
  }

  @Override
  public void write(T value, OutputStream out) throws IOException {
    write(value, 0, out);
  }

  @Override
  public void write(T value, ObjectSerialization serialization, OutputStream out) throws IOException {
    write(value, accepted.indexOf(serialization), out);
  }

  @Override
  public InSerialization<T> readInSerialization(InputStream in) throws IOException {
    W wrapper;
    try {
      wrapper = parse(in);
    } catch (InvalidProtocolBufferException e) {
      throw WireFormat.malformed(messageName, where, e);
    }
    return decode(wrapper);
  }

  @Override
  public InSerialization<T> readInSerialization(ByteBuffer source) throws IOException {
    W wrapper;
    try {
      wrapper = parse(WireFormat.input(source));
    } catch (InvalidProtocolBufferException e) {
      throw WireFormat.malformed(messageName, where, e);
    }
    return decode(wrapper);
  }

  /**
   * The index of the accepted serialization that reads {@code serializeType}.
   *
   * @throws IOException naming {@code what} the wrapper carries, if none does
   */
  final int serializationOf(String serializeType, String what) throws IOException {
    int serialization = accepted.indexOfWireName(serializeType);
    if (serialization < 0) {
      throw accepted.unknown(where, what, serializeType);
    }
    return serialization;
  }
}
