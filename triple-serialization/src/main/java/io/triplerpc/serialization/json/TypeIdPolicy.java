package io.triplerpc.serialization.json;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.jsontype.PolymorphicTypeValidator;
import io.triplerpc.serialization.object.AllowedClasses;
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
 * <p>Classes named in {@code "@class"} are checked by name before Jackson loads them: only those the
 * service's {@link AllowedClasses} allows are used, and Jackson then checks that they are subtypes of the
 * declared type. The same check guards classes named through {@code @JsonTypeInfo} annotations.
 */
final class TypeIdPolicy extends ObjectMapper.DefaultTypeResolverBuilder {

  private static final long serialVersionUID = 1L;

  static final String PROPERTY = "@class";

  TypeIdPolicy(PolymorphicTypeValidator validator) {
    super(ObjectMapper.DefaultTyping.NON_FINAL, validator);
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

  /** The validator of every class name a JSON value names: what {@code allowed} allows and nothing else. */
  static PolymorphicTypeValidator validator(AllowedClasses allowed) {
    return new Validator(allowed);
  }

  private static final class Validator extends PolymorphicTypeValidator.Base {
    private static final long serialVersionUID = 1L;

    private final transient AllowedClasses allowed;

    Validator(AllowedClasses allowed) {
      this.allowed = allowed;
    }

    @Override
    public Validity validateBaseType(MapperConfig<?> config, JavaType baseType) {
      // Every name is judged by itself below; Jackson checks that it is a subtype of the declared type.
      return Validity.INDETERMINATE;
    }

    @Override
    public Validity validateSubClassName(MapperConfig<?> config, JavaType baseType, String subClassName) {
      // Decided on the name alone, before Jackson loads (and initializes) the class.
      return allowed.allows(subClassName) ? Validity.ALLOWED : Validity.DENIED;
    }

    @Override
    public Validity validateSubType(MapperConfig<?> config, JavaType baseType, JavaType subType) {
      return allowed.allows(subType.getRawClass().getName()) ? Validity.ALLOWED : Validity.DENIED;
    }
  }
}
