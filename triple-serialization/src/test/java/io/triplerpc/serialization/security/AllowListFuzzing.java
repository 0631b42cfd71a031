package io.triplerpc.serialization.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.TypeToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fuzz targets of the deserialization allow list, one per serialization (hessian2 here, fastjson2 in
 * its module): byte streams that name classes where the format lets a sender name one, built as an
 * attacker builds them around a class name the fuzzer picks (a gadget, an allowed class, a JDK class, any
 * string), then bent at a few bytes; or raw bytes. Each is read as a service whose allow list names only
 * {@link TrustedValue} would read it.
 *
 * <p>What must hold, beyond "nothing escapes": no code of a refused class runs (not even its static
 * initializer: the {@link Tripwire} hears of none but {@code TrustedValue}'s); a value read is made only of
 * classes the service allows; a refusal names a class the service does not allow; every failure is an
 * {@link IOException} with a message, never another exception.
 */
public final class AllowListFuzzing {

  private static final ClassLoader LOADER = AllowListFuzzing.class.getClassLoader();

  /** The declared types a service may read a value as: each opening an attacker looks for, and a plain one. */
  private static final Type[] TYPES = {
    Object.class, Envelope.class, new TypeToken<List<Object>>() {}.type(),
    new TypeToken<Map<String, Object>>() {}.type(), Object[].class, Throwable.class, String.class,
  };

  /** Classes the fuzzer may name, besides any string it makes up. */
  private static final String[] NAMES = {
    Gadget.class.getName(), "io.triplerpc.serialization.security.LiveGadget", TrustedValue.class.getName(),
    Envelope.class.getName(), "java.lang.ProcessBuilder", "java.lang.Runtime", "javax.management.BadAttributeValueExpException",
    "com.sun.rowset.JdbcRowSetImpl", "java.util.HashMap", "java.lang.Class", "[Ljava.lang.Object;",
  };

  private static final Map<Type, AllowedClasses> ALLOWED = new ConcurrentHashMap<>();
  /** The codec of each serialization and type, made once. */
  private static final Map<List<Object>, ObjectCodec> CODECS = new ConcurrentHashMap<>();

  /** Builds a stream around a class name. */
  public interface Builder {
    byte[] build(String className) throws IOException;
  }

  private AllowListFuzzing() {}

  /** One input: a stream {@code builders} make (or raw bytes), read by {@code serialization}, checked. */
  public static void readOne(FuzzedDataProvider data, ObjectSerialization serialization, List<Builder> builders)
      throws IOException {
    int mode = data.consumeInt(0, builders.size());
    Type type = data.pickValue(TYPES);
    byte[] bytes;
    if (mode < builders.size()) {
      String name = data.consumeBoolean() ? data.pickValue(NAMES) : data.consumeString(80);
      bytes = builders.get(mode).build(name);
      int bends = data.consumeInt(0, 3);
      for (int i = 0; i < bends && bytes.length > 0; i++) {
        bytes[data.consumeInt(0, bytes.length - 1)] = data.consumeByte();
      }
    } else {
      bytes = data.consumeRemainingAsBytes();
    }
    check(serialization, type, bytes);
  }

  private static void check(ObjectSerialization serialization, Type type, byte[] bytes) {
    AllowedClasses allowed = ALLOWED.computeIfAbsent(type, t -> AllowedClasses.forTypes("service fuzz.Mailbox",
        List.of(t), LOADER, DeserializationAllowList.of(TrustedValue.class.getName())));
    // Kept, as a service keeps its codecs: a codec made afresh for each input would, once the last one was
    // collected, make a new per-service state and with it (fastjson2) new generated reader classes, until
    // the fuzzer's coverage counters run out ("Maximum number of coverage counters exceeded").
    ObjectCodec codec = CODECS.computeIfAbsent(List.of(serialization.name(), type),
        key -> serialization.codecFor(type, LOADER, allowed));
    Tripwire.reset();
    Object value = null;
    try {
      value = codec.read(new ByteArrayInputStream(bytes));
    } catch (ClassNotAllowedException refused) {
      assertFalse(allowed.allows(refused.className()), () -> "refused an allowed class: " + refused.getMessage());
      assertTrue(refused.getMessage().contains(refused.className()), "a refusal names the class");
    } catch (IOException malformed) {
      assertNotNull(malformed.getMessage(), "a failure says what went wrong");
    }
    for (String tripped : Tripwire.tripped()) {
      assertTrue(tripped.startsWith("TrustedValue."), () -> "code of a class the service refuses ran: " + tripped);
    }
    if (value != null) {
      assertMadeOfAllowed(value, allowed);
    }
  }

  /** Every object of this package's classes that {@code value} reaches (elements, entries, fields) is of an allowed class. */
  private static void assertMadeOfAllowed(Object value, AllowedClasses allowed) {
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<Object> next = new ArrayDeque<>();
    next.add(value);
    while (!next.isEmpty()) {
      Object o = next.poll();
      if (!seen.add(o)) {
        continue;
      }
      Class<?> c = o.getClass();
      if (c.getPackageName().equals(AllowListFuzzing.class.getPackageName())) {
        // This package's classes: the gadgets, the allowed value, the envelope.
        assertTrue(allowed.allows(c.getName()), () -> "a value of a refused class was made: " + c.getName());
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
          for (Field field : k.getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive() && field.trySetAccessible()) {
              add(next, get(field, o));
            }
          }
        }
      } else if (o instanceof Collection<?> collection) {
        collection.forEach(e -> add(next, e));
      } else if (o instanceof Map<?, ?> map) {
        map.forEach((k, v) -> {
          add(next, k);
          add(next, v);
        });
      } else if (c.isArray() && !c.getComponentType().isPrimitive()) {
        for (int i = 0; i < Array.getLength(o); i++) {
          add(next, Array.get(o, i));
        }
      }
    }
  }

  private static void add(Deque<Object> next, Object o) {
    if (o != null) {
      next.add(o);
    }
  }

  private static Object get(Field field, Object o) {
    try {
      return field.get(o);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
