package io.triplerpc.serialization.internal;

import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.ObjectCodec;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Optional;

/**
 * What every object serialization's codec of one declared type does alike: the messages of a value it
 * cannot write or bytes it cannot read, the check of what a read made against the declared type, and
 * finding the refusal of a class inside whatever the library wrapped it in. Each serialization's codec
 * adds only its library's calls.
 */
public abstract class DeclaredTypeCodec implements ObjectCodec {

  protected final Type type;
  protected final Class<?> rawClass;
  /** The class every non-null value read must be an instance of: the boxed raw class. */
  private final Class<?> expectedClass;
  /** The serialization's name in messages: "hessian2", "JSON". */
  private final String format;

  protected DeclaredTypeCodec(Type type, String format) {
    this.type = type;
    this.rawClass = Types.rawClass(type);
    this.expectedClass = Types.boxed(rawClass);
    this.format = format;
  }

  @Override
  public final Type type() {
    return type;
  }

  /** Why {@code value} could not be written, the library's {@code failure} as its cause. */
  protected final IOException cannotWrite(Object value, Throwable failure) {
    return new IOException("Cannot write " + (value == null ? "null" : "a " + value.getClass().getName())
        + " as " + format + ": " + failure.getMessage(), failure);
  }

  /** The bytes were not a value of the declared type, as {@code problem} says. */
  protected final IOException malformed(String problem) {
    return new IOException("Malformed " + format + " " + type.getTypeName() + ": " + problem);
  }

  /** The bytes were not a value of the declared type, as the library's {@code failure} says. */
  protected final IOException malformed(String problem, Throwable failure) {
    return new IOException("Malformed " + format + " " + type.getTypeName() + ": " + problem, failure);
  }

  /** {@code null} as the declared type reads it: {@link Optional#empty()} for an {@code Optional}. */
  protected final Object nullValue() {
    return rawClass == Optional.class ? Optional.empty() : null;
  }

  /**
   * {@code value} as read, once it is known to be of the declared type; a {@code null} as {@link #nullValue()}.
   *
   * @throws IOException if it is of another class
   */
  protected final Object checked(Object value) throws IOException {
    if (value == null) {
      return nullValue();
    }
    if (!expectedClass.isInstance(value)) {
      throw new IOException("Expected " + format + " " + type.getTypeName() + " but read a "
          + value.getClass().getName() + (value instanceof Map ? " (is the class on the class path and allowed?)" : ""));
    }
    return value;
  }

  /** The refusal that ended a read, wherever the library wrapped it (a field, a list element, ...); or null. */
  protected static ClassNotAllowedException refusal(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof ClassNotAllowedException) {
        return (ClassNotAllowedException) cause;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + '{' + type.getTypeName() + '}';
  }
}
