package io.triplerpc.serialization.json;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.jsontype.PolymorphicTypeValidator;
import java.lang.reflect.Modifier;

/**
 * Which values carry their class in the JSON, so that a subclass declared as its superclass (and an
 * exception declared as {@code Exception}) reads back as itself, as it does in hessian.
 *
 * <p>An {@code "@class"} property is written for values whose declared type is an application class that
 * can have subclasses (not final, not a record or enum, not a JDK type) and for every {@link Throwable}.
 * Everything else (JDK value types, collections and maps, whose elements decide for themselves, records,
 * enums, final classes, {@code Object}) stays plain JSON. A missing {@code "@class"} reads as the declared
 * type, so hand-written JSON works.
 *
 * <p>Classes named in {@code "@class"} are checked before use: below an application base type only its own
 * subtypes can appear (the type check is Jackson's), and below a {@code Throwable} only throwables.
 */
final class TypeIdPolicy extends ObjectMapper.DefaultTypeResolverBuilder {

  private static final long serialVersionUID = 1L;

  static final String PROPERTY = "@class";

  TypeIdPolicy() {
    super(ObjectMapper.DefaultTyping.NON_FINAL, new Validator());
    init(JsonTypeInfo.Id.CLASS, null);
    inclusion(JsonTypeInfo.As.PROPERTY);
    typeProperty(PROPERTY);
  }

  @Override
  public boolean useForType(JavaType type) {
    return carriesClass(type);
  }

  static boolean carriesClass(JavaType type) {
    if (type.isPrimitive() || type.isArrayType() || type.isContainerType() || type.isReferenceType()
        || type.isEnumType()) {
      return false;
    }
    Class<?> raw = type.getRawClass();
    if (Throwable.class.isAssignableFrom(raw)) {
      return true;
    }
    if (raw == Object.class || Modifier.isFinal(raw.getModifiers()) || raw.isRecord()
        || JsonNode.class.isAssignableFrom(raw)) {
      return false;
    }
    return !isPlatformClass(raw.getName());
  }

  /** Whether {@code name} is a class of the JDK or of Jackson itself. */
  static boolean isPlatformClass(String name) {
    return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
        || name.startsWith("sun.") || name.startsWith("com.sun.") || name.startsWith("com.fasterxml.jackson.");
  }

  /** Allows what {@link TypeIdPolicy} describes and nothing else. */
  private static final class Validator extends PolymorphicTypeValidator.Base {
    private static final long serialVersionUID = 1L;

    @Override
    public Validity validateBaseType(MapperConfig<?> config, JavaType baseType) {
      Class<?> raw = baseType.getRawClass();
      if (Throwable.class.isAssignableFrom(raw)) {
        return Validity.INDETERMINATE;
      }
      // An application type's subtypes are application types: Jackson checks assignability itself.
      return carriesClass(baseType) ? Validity.ALLOWED : Validity.DENIED;
    }

    @Override
    public Validity validateSubClassName(MapperConfig<?> config, JavaType baseType, String subClassName) {
      return Validity.INDETERMINATE;
    }

    @Override
    public Validity validateSubType(MapperConfig<?> config, JavaType baseType, JavaType subType) {
      return Throwable.class.isAssignableFrom(subType.getRawClass()) ? Validity.ALLOWED : Validity.DENIED;
    }
  }
}
