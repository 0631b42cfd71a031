package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONB;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.internal.asm.ASMUtils;
import com.alibaba.fastjson2.reader.FieldReader;
import com.alibaba.fastjson2.reader.ObjectReader;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.object.RemoteServiceException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an exception from the JSONB Dubbo writes for it (its fields: {@code detailMessage}, {@code cause},
 * {@code stackTrace}, {@code suppressedExceptions} and those of its own class), keeping what fastjson2's own
 * reader drops: it rebuilds an exception through {@code (String)} or the no-argument constructor without
 * its cause, never restores suppressed exceptions, and gives up on a class whose constructors it cannot
 * match. Here the cause is set with {@code initCause} when no constructor took it, suppressed exceptions are
 * added back, a constructor whose parameters are named after the values read is used when there is no
 * {@code (String, Throwable)} or {@code (String)} one, and an exception that cannot be built (no usable
 * constructor, or a class this side does not have) reads as a {@link RemoteServiceException} naming it.
 *
 * <p>The bytes are the same either way; only this side's reading differs from Dubbo's. Classes an {@code
 * "@type"} names still go through the service's class check first. One per exception class and provider,
 * made by {@link TripleReaders}; immutable and thread-safe.
 */
final class ThrowableReader implements ObjectReader<Throwable> {

  private final Class<? extends Throwable> type;
  private final ObjectReaderProvider provider;
  private final CheckedAutoType autoType;
  /** fastjson2's own reader of the class, for the readers of its fields. */
  private final ObjectReader<?> fields;
  private final Constructor<?> messageCause;
  private final Constructor<?> message;
  private final Constructor<?> none;
  /** Constructors whose parameter names are known, most parameters first, with those names. */
  private final Map<Constructor<?>, String[]> named;

  ThrowableReader(Class<? extends Throwable> type, ObjectReaderProvider provider, CheckedAutoType autoType) {
    this.type = type;
    this.provider = provider;
    this.autoType = autoType;
    this.fields = provider.getCreator().createObjectReader(type, type, true, provider);
    Constructor<?> messageCause = null;
    Constructor<?> message = null;
    Constructor<?> none = null;
    List<Constructor<?>> others = new ArrayList<>();
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      Class<?>[] parameters = constructor.getParameterTypes();
      if (!constructor.trySetAccessible()) {
        continue;
      }
      if (parameters.length == 0) {
        none = constructor;
      } else if (parameters.length == 1 && parameters[0] == String.class) {
        message = constructor;
      } else if (parameters.length == 2 && parameters[0] == String.class && parameters[1] == Throwable.class) {
        messageCause = constructor;
      } else {
        others.add(constructor);
      }
    }
    others.sort(Comparator.comparingInt(Constructor<?>::getParameterCount).reversed());
    Map<Constructor<?>, String[]> named = new LinkedHashMap<>();
    for (Constructor<?> constructor : others) {
      String[] names = parameterNames(constructor);
      if (names != null) {
        named.put(constructor, names);
      }
    }
    this.messageCause = messageCause;
    this.message = message;
    this.none = none;
    this.named = named;
  }

  @Override
  public Class<Throwable> getObjectClass() {
    @SuppressWarnings("unchecked")
    Class<Throwable> objectClass = (Class<Throwable>) (Class<?>) type;
    return objectClass;
  }

  @Override
  public Throwable readObject(JSONReader reader, Type fieldType, Object fieldName, long features) {
    if (!reader.isJSONB()) {
      throw new JSONException("Triple reads exceptions from JSONB only");
    }
    return readJSONBObject(reader, fieldType, fieldName, features);
  }

  @Override
  public Throwable readJSONBObject(JSONReader reader, Type fieldType, Object fieldName, long features) {
    if (reader.getType() == JSONB.Constants.BC_TYPED_ANY) {
      reader.next();
      reader.readTypeHashCode();
      String typeName = reader.getString();
      // The class check runs here, before anything of the class is loaded.
      Class<?> named = autoType.apply(typeName, type, features);
      if (named == null) {
        return readBody(reader, RemoteServiceException.class, typeName);
      }
      if (!Throwable.class.isAssignableFrom(named)) {
        throw new JSONException("Expected an exception, but the value is a " + named.getName());
      }
      ObjectReader<?> delegate = provider.getObjectReader(named, true);
      if (delegate instanceof ThrowableReader) {
        return ((ThrowableReader) delegate).readBody(reader, named, null);
      }
      return (Throwable) delegate.readJSONBObject(reader, fieldType, fieldName, features);
    }
    if (reader.nextIfNull()) {
      return null;
    }
    return readBody(reader, type, null);
  }

  /**
   * Reads the fields of an exception of class {@code target} (this reader's, or a subclass's whose reader
   * called), or of a stand-in for {@code remoteClassName}, a class this side does not have.
   */
  private Throwable readBody(JSONReader reader, Class<?> target, String remoteClassName) {
    if (!reader.nextIfObjectStart()) {
      throw new JSONException("Expected an exception object for " + type.getName());
    }
    String messageRead = null;
    Throwable cause = null;
    StackTraceElement[] stackTrace = null;
    Collection<?> suppressed = null;
    Map<FieldReader, Object> values = new HashMap<>();
    Map<String, Object> byName = new HashMap<>();
    while (!reader.nextIfObjectEnd()) {
      long hash = reader.readFieldNameHashCode();
      String name = reader.getFieldName();
      if (reader.isReference()) {
        // fastjson2 leaves references among an exception's fields unresolved too.
        reader.readReference();
        continue;
      }
      switch (name) {
        case "detailMessage":
        case "message":
          messageRead = reader.readString();
          break;
        case "localizedMessage":
          reader.skipValue();
          break;
        case "cause":
          cause = reader.read(Throwable.class);
          break;
        case "stackTrace":
          stackTrace = reader.read(StackTraceElement[].class);
          break;
        case "suppressedExceptions":
          suppressed = reader.getType() == JSONB.Constants.BC_TYPED_ANY
              ? (Collection<?>) reader.readAny() : reader.readArray(Throwable.class);
          break;
        default:
          FieldReader field = fields.getFieldReader(hash);
          if (field == null) {
            reader.skipValue();
          } else {
            Object value = field.readFieldValue(reader);
            values.put(field, value);
            byName.put(field.fieldName, value);
          }
      }
    }
    Throwable built = remoteClassName != null ? new RemoteServiceException(remoteClassName, messageRead)
        : target == RemoteServiceException.class
            ? new RemoteServiceException((String) byName.get("remoteClassName"), messageRead)
            : construct(messageRead, cause, byName);
    if (built == null) {
      built = new RemoteServiceException(target.getName(), messageRead);
    }
    if (cause != null && cause != built && built.getCause() == null) {
      try {
        built.initCause(cause);
      } catch (IllegalStateException | IllegalArgumentException e) {
        // A constructor set the cause (perhaps to null) or the class refuses one: keep what it made.
      }
    }
    if (stackTrace != null && !Arrays.asList(stackTrace).contains(null)) {
      built.setStackTrace(stackTrace);
    }
    if (suppressed != null) {
      for (Object exception : suppressed) {
        if (exception instanceof Throwable && exception != built) {
          built.addSuppressed((Throwable) exception);
        }
      }
    }
    if (!(built instanceof RemoteServiceException)) {
      for (Map.Entry<FieldReader, Object> value : values.entrySet()) {
        value.getKey().accept(built, value.getValue());
      }
    }
    return built;
  }

  /** An instance of this reader's class from what was read, or null if no constructor fits. */
  private Throwable construct(String messageRead, Throwable cause, Map<String, Object> byName) {
    try {
      if (messageCause != null) {
        return (Throwable) messageCause.newInstance(messageRead, cause);
      }
      if (message != null) {
        return (Throwable) message.newInstance(messageRead);
      }
      for (Map.Entry<Constructor<?>, String[]> candidate : named.entrySet()) {
        Object[] arguments = arguments(candidate.getKey(), candidate.getValue(), messageRead, cause, byName);
        if (arguments != null) {
          return (Throwable) candidate.getKey().newInstance(arguments);
        }
      }
      if (none != null) {
        return (Throwable) none.newInstance();
      }
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException
        | IllegalArgumentException e) {
      return null;
    }
    return null;
  }

  /** The arguments of {@code constructor} by the names of its parameters, or null if one has no value. */
  private static Object[] arguments(Constructor<?> constructor, String[] names, String messageRead,
      Throwable cause, Map<String, Object> byName) {
    Class<?>[] types = constructor.getParameterTypes();
    Object[] arguments = new Object[names.length];
    for (int i = 0; i < names.length; i++) {
      Object value;
      if ("message".equals(names[i]) && types[i] == String.class) {
        value = messageRead;
      } else if ("cause".equals(names[i]) && Throwable.class.isAssignableFrom(types[i])) {
        value = types[i].isInstance(cause) ? cause : null;
      } else if (byName.containsKey(names[i])) {
        value = byName.get(names[i]);
      } else {
        return null;
      }
      if (value == null && types[i].isPrimitive() || value != null && !Types.boxed(types[i]).isInstance(value)) {
        return null;
      }
      arguments[i] = value;
    }
    return arguments;
  }

  /** The names of {@code constructor}'s parameters, from -parameters or its debug information; or null. */
  private static String[] parameterNames(Constructor<?> constructor) {
    if (constructor.getParameters().length > 0 && constructor.getParameters()[0].isNamePresent()) {
      return Arrays.stream(constructor.getParameters()).map(Parameter::getName).toArray(String[]::new);
    }
    try {
      String[] names = ASMUtils.lookupParameterNames(constructor);
      return names == null || names.length != constructor.getParameterCount()
          || Arrays.asList(names).contains(null) ? null : names;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
