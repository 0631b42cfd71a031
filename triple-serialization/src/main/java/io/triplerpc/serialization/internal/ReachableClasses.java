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
 * <p>Classes that type a slot (a parameter, result, exception, field or type argument) and can have
 * subclasses are also collected as extensible: a value in that slot may be of a subclass. A class reached
 * only as a supertype is not: no slot declares it, so its other subclasses have no place to go.
 *
 * <p>Not thread-safe; one walk at a time, by whoever owns the collections it fills.
 */
public final class ReachableClasses {

  private final Set<String> names;
  private final Collection<Class<?>> extensible;
  private final Set<Class<?>> slotClasses = new HashSet<>();
  private final Set<Type> seenInSlots = new HashSet<>();
  private final Set<Type> seenAsSupertypes = new HashSet<>();

  /**
   * A walk that adds every class name it reaches to {@code names}, and every application class that types
   * a slot and can have subclasses (not final, not an enum or record) to {@code extensible}.
   */
  public ReachableClasses(Set<String> names, Collection<Class<?>> extensible) {
    this.names = names;
    this.extensible = extensible;
  }

  /** Adds what a slot declared as {@code type} reaches. */
  public void walk(Type type) {
    walk(type, true);
  }

  private void walk(Type type, boolean slot) {
    if (type == null) {
      return;
    }
    if (type instanceof Class<?>) {
      walkClass((Class<?>) type, slot);
      return;
    }
    if (!(slot ? seenInSlots : seenAsSupertypes).add(type)) {
      return;
    }
    if (type instanceof ParameterizedType) {
      ParameterizedType parameterized = (ParameterizedType) type;
      walk(parameterized.getRawType(), slot);
      for (Type argument : parameterized.getActualTypeArguments()) {
        walk(argument, true);
      }
    } else if (type instanceof GenericArrayType) {
      walk(((GenericArrayType) type).getGenericComponentType(), slot);
    } else if (type instanceof WildcardType) {
      for (Type bound : ((WildcardType) type).getUpperBounds()) {
        walk(bound, slot);
      }
      for (Type bound : ((WildcardType) type).getLowerBounds()) {
        walk(bound, slot);
      }
    } else if (type instanceof TypeVariable<?>) {
      for (Type bound : ((TypeVariable<?>) type).getBounds()) {
        walk(bound, slot);
      }
    }
  }

  private void walkClass(Class<?> type, boolean slot) {
    if (type.isArray()) {
      walk(type.getComponentType(), slot);
      return;
    }
    if (type.isPrimitive()) {
      return;
    }
    String name = type.getName();
    boolean first = names.add(name);
    boolean platform = SafeJdkClasses.isPlatform(name);
    boolean isEnum = type.isEnum() || Enum.class.isAssignableFrom(type);
    if (slot && !platform && !isEnum && !Modifier.isFinal(type.getModifiers()) && !type.isRecord()
        && slotClasses.add(type)) {
      extensible.add(type);
    }
    // An enum is read by constant name; its fields are not serialized.
    if (!first || platform || isEnum) {
      return;
    }
    walk(type.getGenericSuperclass(), false);
    for (Type supertype : type.getGenericInterfaces()) {
      walk(supertype, false);
    }
    for (Field field : type.getDeclaredFields()) {
      int modifiers = field.getModifiers();
      if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers)) {
        walk(field.getGenericType(), true);
      }
    }
  }
}
