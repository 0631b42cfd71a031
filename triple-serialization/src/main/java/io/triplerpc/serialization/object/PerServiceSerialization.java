package io.triplerpc.serialization.object;

import io.triplerpc.serialization.internal.PerAllowedClasses;
import java.lang.reflect.Type;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * An {@link ObjectSerialization} whose codecs of one service share one state (a hessian factory, a
 * Jackson mapper, fastjson2's providers), made once per class loader and {@link AllowedClasses}, that
 * is per service: such libraries cache what a class name resolved to, so a state shared by services
 * that allow different classes would let one service's allowed names through another. The state lives
 * as long as the codecs that use it.
 *
 * @param <S> the shared state
 */
public abstract class PerServiceSerialization<S> implements ObjectSerialization {

  private final String name;
  private final String wireName;
  private final PerAllowedClasses<S> states;

  /**
   * @param name the name services select it by
   * @param wireName what it writes into a wrapper's {@code serializeType}
   * @param newState makes the state of a class loader and an allowed set, on first use
   */
  protected PerServiceSerialization(String name, String wireName, BiFunction<ClassLoader, AllowedClasses, S> newState) {
    this.name = Objects.requireNonNull(name, "name");
    this.wireName = Objects.requireNonNull(wireName, "wireName");
    this.states = new PerAllowedClasses<>(Objects.requireNonNull(newState, "newState"));
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String wireName() {
    return wireName;
  }

  /** By default only its own {@link #wireName()}. */
  @Override
  public boolean readsWireName(String serializeType) {
    return wireName.equals(serializeType);
  }

  /** The codec over the state of {@code classLoader} (this serialization's own if null) and {@code allowed}. */
  @Override
  public final ObjectCodec codecFor(Type type, ClassLoader classLoader, AllowedClasses allowed) {
    ClassLoader loader = classLoader == null ? getClass().getClassLoader() : classLoader;
    return newCodec(type, states.get(loader, allowed), allowed);
  }

  /** The codec of values declared as {@code type}, over the service's {@code state}. */
  protected abstract ObjectCodec newCodec(Type type, S state, AllowedClasses allowed);

  @Override
  public String toString() {
    return getClass().getSimpleName();
  }
}
