package io.triplerpc.serialization.wrapper;

import static java.util.Objects.requireNonNull;

import io.triplerpc.serialization.object.ObjectSerialization;

/**
 * A value and the serialization it travelled in: what a server reads a request as, so that it answers in
 * the caller's serialization, as Dubbo's servers do.
 *
 * @param value the value read ({@code Object[]} for a request's arguments), which may be null
 * @param serialization the serialization the wrapper's {@code serializeType} named
 * @param <T> the type of the value
 */
public record InSerialization<T>(T value, ObjectSerialization serialization) {

  public InSerialization {
    requireNonNull(serialization, "serialization");
  }
}
