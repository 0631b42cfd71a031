package io.triplerpc.serialization.json;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.internal.PerAllowedClasses;
import io.triplerpc.serialization.object.AllowedClasses;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Values in the generic form of Dubbo's generic calls ({@code GenericService.$invoke}): objects as maps
 * of their fields with a {@code "class"} entry naming their class, collections and arrays as lists, enums
 * as their names, an {@code Optional} as its value or null; scalars, strings, {@code BigDecimal}, {@code BigInteger}, dates, {@code java.time} and
 * {@code UUID} as themselves.
 *
 * <p>{@link #realize} turns such a value into a declared type through Jackson, with the same class checks
 * as JSON: only the declared type and what it reaches are built, and a {@code "class"} entry is used only
 * when the service's {@link AllowedClasses} allows the class it names (as JSON's {@code "@class"} is).
 */
public final class GenericValues {

  /** The entry of a generic object that names its class, as Dubbo's PojoUtils writes it. */
  public static final String CLASS_KEY = "class";

  private static final PerAllowedClasses<ObjectMapper> MAPPERS =
      new PerAllowedClasses<>(JsonObjectSerialization::newMapper);

  private GenericValues() {}

  /**
   * {@code value}, in generic form, as a value of {@code type}.
   *
   * @throws MalformedMessageException if it does not fit the type, or names a class not allowed
   */
  public static Object realize(Object value, Type type, ClassLoader loader, AllowedClasses allowed)
      throws MalformedMessageException {
    if (value == null) {
      return null;
    }
    ObjectMapper mapper = MAPPERS.get(loader, allowed);
    JavaType javaType = mapper.getTypeFactory().constructType(type);
    try {
      return mapper.convertValue(typeIds(value), javaType);
    } catch (IllegalArgumentException e) {
      throw new MalformedMessageException("Cannot make a " + type.getTypeName() + " of a generic value: "
          + e.getMessage(), e);
    }
  }

  /** The value with each {@code "class"} entry renamed to JSON's type id, {@code "@class"}. */
  private static Object typeIds(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> renamed = new LinkedHashMap<>();
      map.forEach((key, entry) -> renamed.put(CLASS_KEY.equals(key) ? TypeIdPolicy.PROPERTY : key, typeIds(entry)));
      return renamed;
    }
    if (value instanceof Collection<?> collection) {
      List<Object> list = new ArrayList<>(collection.size());
      collection.forEach(element -> list.add(typeIds(element)));
      return list;
    }
    if (value instanceof Object[] array) {
      List<Object> list = new ArrayList<>(array.length);
      for (Object element : array) {
        list.add(typeIds(element));
      }
      return list;
    }
    return value;
  }

  /**
   * {@code value} in generic form. An object met twice becomes the same map, so cycles end.
   *
   * @throws IllegalArgumentException if a field cannot be read
   */
  public static Object generalize(Object value) {
    return generalize(value, new IdentityHashMap<>());
  }

  private static Object generalize(Object value, IdentityHashMap<Object, Object> seen) {
    if (value == null || isScalar(value)) {
      return value;
    }
    if (value instanceof Enum<?> constant) {
      return constant.name();
    }
    if (value instanceof byte[]) {
      return value;
    }
    if (value instanceof java.util.Optional<?> optional) {
      return generalize(optional.orElse(null), seen);
    }
    Object known = seen.get(value);
    if (known != null) {
      return known;
    }
    if (value.getClass().isArray()) {
      int length = Array.getLength(value);
      List<Object> list = new ArrayList<>(length);
      seen.put(value, list);
      for (int i = 0; i < length; i++) {
        list.add(generalize(Array.get(value, i), seen));
      }
      return list;
    }
    if (value instanceof Collection<?> collection) {
      List<Object> list = new ArrayList<>(collection.size());
      seen.put(value, list);
      collection.forEach(element -> list.add(generalize(element, seen)));
      return list;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      seen.put(value, copy);
      map.forEach((key, entry) -> copy.put(generalize(key, seen), generalize(entry, seen)));
      return copy;
    }
    Map<String, Object> object = new LinkedHashMap<>();
    seen.put(value, object);
    object.put(CLASS_KEY, value.getClass().getName());
    if (value.getClass().isRecord()) {
      for (RecordComponent component : value.getClass().getRecordComponents()) {
        object.put(component.getName(), generalize(read(component.getAccessor(), value), seen));
      }
      return object;
    }
    for (Class<?> type = value.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
      for (Field field : type.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || object.containsKey(field.getName())) {
          continue;
        }
        object.put(field.getName(), generalize(read(field, value), seen));
      }
    }
    return object;
  }

  private static boolean isScalar(Object value) {
    return value instanceof String || value instanceof Number && (value.getClass().getName().startsWith("java.")
        || value instanceof BigDecimal || value instanceof BigInteger)
        || value instanceof Boolean || value instanceof Character || value instanceof Date
        || value instanceof UUID || value.getClass().getName().startsWith("java.time.");
  }

  private static Object read(java.lang.reflect.AccessibleObject member, Object target) {
    try {
      member.setAccessible(true);
      return member instanceof Field field ? field.get(target) : ((java.lang.reflect.Method) member).invoke(target);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalArgumentException("Cannot read " + member + " of a " + target.getClass().getName()
          + " into its generic form: " + e, e);
    }
  }
}
