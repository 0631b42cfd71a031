package io.triplerpc.serialization.object;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;

/**
 * Writes and reads single values of one declared type.
 *
 * <p>Immutable and thread-safe: one instance serves every call of every thread. Per-call state (such as a
 * hessian stream) is reused per thread rather than created per call.
 */
public interface ObjectCodec {

  /** The declared type this codec reads, generics included. */
  Type type();

  /**
   * Writes {@code value} (which may be {@code null}, or an instance of a subclass of the declared type) to
   * {@code out}; does not close it.
   *
   * @throws IOException if the value cannot be serialized, naming its class
   */
  void write(Object value, OutputStream out) throws IOException;

  /**
   * Reads one whole value from {@code in}, which ends where the value ends. Returns {@code null} only for
   * a serialized {@code null}; a declared {@code Optional} reads {@code null} as {@link java.util.Optional#empty()}.
   *
   * @throws IOException if the bytes are malformed, hold more than one value, or hold a value that is not
   *     an instance of the declared type
   */
  Object read(InputStream in) throws IOException;
}
