package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.util.TypeUtils;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import java.lang.reflect.Array;
import java.util.Map;

/**
 * The class check of every fastjson2 read: fastjson2 hands it each class name the JSONB names (an
 * {@code "@type"}, a {@code java.lang.Class} value) before it loads anything, and uses the class returned.
 * A name the service's {@link AllowedClasses} does not allow is refused by throwing {@link Refused}; an
 * allowed one is loaded without being initialized (fastjson2 builds the value afterwards).
 *
 * <p>fastjson2 writes some JDK classes under short names of its own ({@code "IllegalStateException"},
 * {@code "[String"}, {@code "HashSet"}); those are resolved through its fixed table and checked as the
 * classes they stand for. A name that no class of the loader has yields {@code null}: with autotype off,
 * fastjson2 then reads the value as the declared type or fails.
 *
 * <p>Immutable and thread-safe.
 */
final class CheckedAutoType implements JSONReader.AutoTypeBeforeHandler {

  private static final Map<String, Class<?>> PRIMITIVES = Map.of(
      "Z", boolean.class, "B", byte.class, "C", char.class, "S", short.class, "I", int.class, "J", long.class,
      "F", float.class, "D", double.class);

  private final ClassLoader loader;
  private final AllowedClasses allowed;

  CheckedAutoType(ClassLoader loader, AllowedClasses allowed) {
    this.loader = loader;
    this.allowed = allowed;
  }

  @Override
  public Class<?> apply(String typeName, Class<?> expectClass, long features) {
    if (typeName == null || typeName.isEmpty()) {
      return null;
    }
    Class<?> mapped = TypeUtils.getMapping(typeName);
    if (mapped != null) {
      check(mapped.getName());
      return mapped;
    }
    int dimensions = 0;
    String element = typeName;
    while (element.endsWith("[]")) {
      dimensions++;
      element = element.substring(0, element.length() - 2);
    }
    while (element.startsWith("[")) {
      dimensions++;
      element = element.substring(1);
    }
    if (dimensions > 0 && element.length() > 2 && element.charAt(0) == 'L' && element.endsWith(";")) {
      element = element.substring(1, element.length() - 1);
    }
    Class<?> type = dimensions > 0 ? PRIMITIVES.get(element) : null;
    if (type == null) {
      check(element);
      type = load(element);
      if (type == null) {
        return null;
      }
    }
    for (int i = 0; i < dimensions; i++) {
      type = Array.newInstance(type, 0).getClass();
    }
    return type;
  }

  private void check(String className) {
    if (!allowed.allows(className)) {
      throw new Refused(allowed.refusal(className));
    }
  }

  /** Loads {@code name} without initializing it, so none of its code runs; null if it cannot be loaded. */
  private Class<?> load(String name) {
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /** Carries a refusal out through fastjson2, whose readers throw only unchecked exceptions. */
  static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(ClassNotAllowedException refusal) {
      super(refusal.getMessage(), refusal);
    }

    ClassNotAllowedException refusal() {
      return (ClassNotAllowedException) getCause();
    }
  }
}
