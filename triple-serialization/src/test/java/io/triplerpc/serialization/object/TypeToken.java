package io.triplerpc.serialization.object;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/** Captures a generic type: {@code new TypeToken<List<Address>>() {}.type()}. */
public abstract class TypeToken<T> {
  private final Type type;

  protected TypeToken() {
    this.type = ((ParameterizedType) getClass().getGenericSuperclass()).getActualTypeArguments()[0];
  }

  public Type type() {
    return type;
  }
}
