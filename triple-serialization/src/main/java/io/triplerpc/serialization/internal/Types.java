package io.triplerpc.serialization.internal;

import java.lang.reflect.Array;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Declared-type arithmetic for codecs built once per method: erasure, boxing, and type variables resolved
 * against the service interface (so {@code T find()} declared in {@code Repository<T>} reads a {@code User}
 * when the service is a {@code Repository<User>}).
 */
public final class Types {

  /** Each primitive class's wrapper, {@code void}'s included. */
  private static final Map<Class<?>, Class<?>> BOXES = Map.of(
      int.class, Integer.class, long.class, Long.class, boolean.class, Boolean.class, double.class, Double.class,
      float.class, Float.class, short.class, Short.class, byte.class, Byte.class, char.class, Character.class,
      void.class, Void.class);

  private Types() {}

  /** The class a value of {@code type} is an instance of, as far as erasure tells. */
  public static Class<?> rawClass(Type type) {
    if (type instanceof Class<?>) {
      return (Class<?>) type;
    }
    if (type instanceof ParameterizedType) {
      return (Class<?>) ((ParameterizedType) type).getRawType();
    }
    if (type instanceof GenericArrayType) {
      return Array.newInstance(rawClass(((GenericArrayType) type).getGenericComponentType()), 0).getClass();
    }
    if (type instanceof WildcardType) {
      return rawClass(((WildcardType) type).getUpperBounds()[0]);
    }
    if (type instanceof TypeVariable<?>) {
      return rawClass(((TypeVariable<?>) type).getBounds()[0]);
    }
    throw new IllegalArgumentException("Unsupported type " + type);
  }

  /** The wrapper class of a primitive, or {@code type} itself. */
  public static Class<?> boxed(Class<?> type) {
    return type.isPrimitive() ? BOXES.get(type) : type;
  }

  /** The erased type arguments of {@code type}, or an empty array when it has none. */
  public static Class<?>[] rawTypeArguments(Type type) {
    if (!(type instanceof ParameterizedType)) {
      return new Class<?>[0];
    }
    Type[] arguments = ((ParameterizedType) type).getActualTypeArguments();
    Class<?>[] raw = new Class<?>[arguments.length];
    for (int i = 0; i < arguments.length; i++) {
      raw[i] = rawClass(arguments[i]);
    }
    return raw;
  }

  /**
   * Replaces the type variables in {@code type} with what {@code context} binds them to through its
   * superclasses and interfaces. A variable nothing binds (a method's own {@code <T>}) becomes its bound;
   * a wildcard becomes its upper bound, which is what a reader can construct.
   */
  public static Type resolve(Type type, Class<?> context) {
    return resolve(type, bindings(context));
  }

  private static Type resolve(Type type, Map<TypeVariable<?>, Type> bindings) {
    if (type instanceof Class<?>) {
      return type;
    }
    if (type instanceof TypeVariable<?>) {
      Type bound = bindings.get(type);
      if (bound != null) {
        return bound;
      }
      return resolve(((TypeVariable<?>) type).getBounds()[0], bindings);
    }
    if (type instanceof WildcardType) {
      return resolve(((WildcardType) type).getUpperBounds()[0], bindings);
    }
    if (type instanceof GenericArrayType) {
      Type component = resolve(((GenericArrayType) type).getGenericComponentType(), bindings);
      return component instanceof Class<?>
          ? Array.newInstance((Class<?>) component, 0).getClass()
          : new ResolvedArrayType(component);
    }
    if (type instanceof ParameterizedType) {
      ParameterizedType parameterized = (ParameterizedType) type;
      Type[] arguments = parameterized.getActualTypeArguments().clone();
      for (int i = 0; i < arguments.length; i++) {
        arguments[i] = resolve(arguments[i], bindings);
      }
      Type owner = parameterized.getOwnerType();
      return new ResolvedParameterizedType(
          (Class<?>) parameterized.getRawType(), arguments, owner == null ? null : resolve(owner, bindings));
    }
    throw new IllegalArgumentException("Unsupported type " + type);
  }

  /** What each type variable of {@code context}'s supertypes stands for, seen from {@code context}. */
  private static Map<TypeVariable<?>, Type> bindings(Class<?> context) {
    Map<TypeVariable<?>, Type> bindings = new HashMap<>();
    collect(context, bindings);
    return bindings;
  }

  private static void collect(Class<?> type, Map<TypeVariable<?>, Type> bindings) {
    if (type == null || type == Object.class) {
      return;
    }
    // A type's own supertypes are bound before the recursion into them, so an argument that is itself a
    // variable (Base<List<T>> inside Repository<T>) resolves through what was bound one level down.
    collect(type.getGenericSuperclass(), bindings);
    for (Type supertype : type.getGenericInterfaces()) {
      collect(supertype, bindings);
    }
  }

  private static void collect(Type supertype, Map<TypeVariable<?>, Type> bindings) {
    if (supertype instanceof ParameterizedType) {
      ParameterizedType parameterized = (ParameterizedType) supertype;
      Class<?> raw = (Class<?>) parameterized.getRawType();
      TypeVariable<?>[] variables = raw.getTypeParameters();
      Type[] arguments = parameterized.getActualTypeArguments();
      for (int i = 0; i < variables.length; i++) {
        bindings.putIfAbsent(variables[i], resolve(arguments[i], bindings));
      }
      collect(raw, bindings);
    } else if (supertype instanceof Class<?>) {
      collect((Class<?>) supertype, bindings);
    }
  }

  private static final class ResolvedParameterizedType implements ParameterizedType {
    private final Class<?> raw;
    private final Type[] arguments;
    private final Type owner;

    ResolvedParameterizedType(Class<?> raw, Type[] arguments, Type owner) {
      this.raw = raw;
      this.arguments = arguments;
      this.owner = owner;
    }

    @Override
    public Type[] getActualTypeArguments() {
      return arguments.clone();
    }

    @Override
    public Type getRawType() {
      return raw;
    }

    @Override
    public Type getOwnerType() {
      return owner;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof ParameterizedType)) {
        return false;
      }
      ParameterizedType that = (ParameterizedType) o;
      return raw.equals(that.getRawType())
          && Objects.equals(owner, that.getOwnerType())
          && Arrays.equals(arguments, that.getActualTypeArguments());
    }

    @Override
    public int hashCode() {
      // The same formula as the JDK's own ParameterizedType, so both kinds mix in hash maps.
      return Arrays.hashCode(arguments) ^ Objects.hashCode(owner) ^ raw.hashCode();
    }

    @Override
    public String toString() {
      StringBuilder name = new StringBuilder(raw.getTypeName()).append('<');
      for (int i = 0; i < arguments.length; i++) {
        name.append(i == 0 ? "" : ", ").append(arguments[i].getTypeName());
      }
      return name.append('>').toString();
    }
  }

  private static final class ResolvedArrayType implements GenericArrayType {
    private final Type component;

    ResolvedArrayType(Type component) {
      this.component = component;
    }

    @Override
    public Type getGenericComponentType() {
      return component;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof GenericArrayType && component.equals(((GenericArrayType) o).getGenericComponentType());
    }

    @Override
    public int hashCode() {
      return component.hashCode();
    }

    @Override
    public String toString() {
      return component.getTypeName() + "[]";
    }
  }
}
