package io.triplerpc.serialization.wrapper;

import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.object.ObjectSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The codec of one wrapper message (a request's arguments, a result, an exception) in every serialization
 * a method accepts: it reads whichever one the wrapper's {@code serializeType} names, and writes the first
 * of {@link #serializations()} unless told another.
 *
 * <p>Built once per method; immutable and thread-safe. Choosing the serialization of a message is an array
 * scan of the few the method accepts, with no string built and no map copied.
 *
 * @param <T> the type of the values
 */
public interface WrapperCodec<T> extends MessageCodec<T> {

  /** The serializations this codec reads; the first is the one {@link #write(Object, OutputStream)} writes. */
  List<ObjectSerialization> serializations();

  /** Reads a message in any of {@link #serializations()}, and tells which one it was in. */
  InSerialization<T> readInSerialization(InputStream in) throws IOException;

  /** Reads a message in any of {@link #serializations()}, and tells which one it was in. */
  InSerialization<T> readInSerialization(ByteBuffer source) throws IOException;

  @Override
  default T read(InputStream in) throws IOException {
    return readInSerialization(in).value();
  }

  @Override
  default T read(ByteBuffer source) throws IOException {
    return readInSerialization(source).value();
  }

  /** Writes {@code value} in the first of {@link #serializations()}. */
  @Override
  default void write(T value, OutputStream out) throws IOException {
    write(value, serializations().get(0), out);
  }

  /**
   * Writes {@code value} in {@code serialization}.
   *
   * @throws IllegalArgumentException if {@code serialization} is not one of {@link #serializations()}
   */
  void write(T value, ObjectSerialization serialization, OutputStream out) throws IOException;
}
