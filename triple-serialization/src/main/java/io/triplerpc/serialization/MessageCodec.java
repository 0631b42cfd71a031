package io.triplerpc.serialization;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Turns values of one message type into bytes and back.
 *
 * <p>Implementations are immutable and thread-safe: one instance serves every call of every thread.
 *
 * @param <T> the message type
 */
public interface MessageCodec<T> {

  /** The media subtype that names this encoding on the wire, such as {@code "proto"}. */
  String subtype();

  /**
   * The class of the messages this codec reads and writes, when they are of one class (a generated
   * protobuf message, say), else null. Server reflection describes the methods whose codecs name a
   * protobuf message class.
   */
  default Class<?> messageType() {
    return null;
  }

  /**
   * Returns the exact number of bytes {@link #write(Object, ByteBuffer)} will produce for {@code value},
   * or {@code -1} when it cannot be known without serializing (then {@link #write(Object, OutputStream)}
   * is used).
   */
  int serializedSize(T value);

  /** Writes {@code value} to {@code out}; does not close it. */
  void write(T value, OutputStream out) throws IOException;

  /**
   * Writes {@code value} into {@code target}, which has exactly {@link #serializedSize} bytes remaining.
   * Called only when {@code serializedSize} returned a non-negative size.
   */
  default void write(T value, ByteBuffer target) throws IOException {
    throw new UnsupportedOperationException(getClass().getName() + " reports no size, so it writes to streams only");
  }

  /** Reads one whole value from {@code in}, which ends where the message ends. */
  T read(InputStream in) throws IOException;

  /** Reads one whole value from {@code source}; the default reads through a stream view. */
  default T read(ByteBuffer source) throws IOException {
    return read(new ByteBufferInputStream(source));
  }

  /**
   * Reads one whole value from the remaining bytes of {@code pieces}, in order: a message that arrived
   * in several frames. The default reads through a stream over them; a codec that can read the pieces
   * in place, without copying them into one array, overrides it.
   */
  default T read(ByteBuffer[] pieces) throws IOException {
    return read(new ByteBufferInputStream(pieces));
  }

  /**
   * The codec of the same type for another media subtype, such as {@code "json"} for an HTTP unary
   * call with a JSON body, or null if this type has no such encoding. Called once per method when a
   * server starts, never per call; the default knows only its own subtype.
   */
  default MessageCodec<T> withSubtype(String subtype) {
    return subtype().equals(subtype) ? this : null;
  }
}
