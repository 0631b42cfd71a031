package io.triplerpc.serialization.internal;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The classes a value of a declared type can be made of: the type itself, its type arguments, and for an
 * application class its supertypes and the declared types of its serialized (non-static, non-transient)
 * fields, recursively. JDK classes are named but not entered: their fields are private state, and what
 * their readers need is listed in {@link SafeJdkClasses}.
 *
 * <p>Not thread-safe; one walk at a time, by whoever owns the collections it fills.
 */
public final class ReachableClasses {

  private final Set<String> names;
  private final Collection<Class<?>> extensible;
  private final Set<Type> seen = new HashSet<>();

  /**
   * A walk that adds every class name it reaches to {@code names} and every application class that can
   * have subclasses (not final, not an enum or record) to {@code extensible}.
   */
  public ReachableClasses(Set<String> names, Collection<Class<?>> extensible) {
    this.names = names;
    this.extensible = extensible;
  }

  /** Adds what {@code type} reaches. */
  public void walk(Type type) {
    if (type == null || !seen.add(type)) {
      return;
    }
    if (type instanceof Class<?>) {
      walkClass((Class<?>) type);
    } else if (type instanceof ParameterizedType) {
      ParameterizedType parameterized = (ParameterizedType) type;
      walk(parameterized.getRawType());
      for (Type argument : parameterized.getActualTypeArguments()) {
        walk(argument);
      }
    } else if (type instanceof GenericArrayType) {
      walk(((GenericArrayType) type).getGenericComponentType());
    } else if (type instanceof WildcardType) {
      for (Type bound : ((WildcardType) type).getUpperBounds()) {
        walk(bound);
      }
      for (Type bound : ((WildcardType) type).getLowerBounds()) {
        walk(bound);
      }
    } else if (type instanceof TypeVariable<?>) {
      for (Type bound : ((TypeVariable<?>) type).getBounds()) {
        walk(bound);
      }
    }
  }

  private void walkClass(Class<?> type) {
    if (type.isArray()) {
      walk(type.getComponentType());
      return;
    }
    if (type.isPrimitive() || !names.add(type.getName()) || SafeJdkClasses.isPlatform(type.getName())) {
      return;
    }
    if (type.isEnum() || Enum.class.isAssignableFrom(type)) {
      // Read by constant name; its fields are not serialized.
      return;
    }
    if (!Modifier.isFinal(type.getModifiers()) && !type.isRecord()) {
      extensible.add(type);
    }
    walk(type.getGenericSuperclass());
    for (Type supertype : type.getGenericInterfaces()) {
      walk(supertype);
    }
    for (Field field : type.getDeclaredFields()) {
      int modifiers = field.getModifiers();
      if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers)) {
        walk(field.getGenericType());
      }
    }
  }
}
