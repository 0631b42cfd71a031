package io.triplerpc.testing;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The class names of the Netty channels a Triple server or client holds, found by following its
 * fields: neither has (nor should have) an API that names its channels, and the test must see the
 * channels the transport really opened, not the class it would pick. Follows the instance fields of
 * Triple's classes (the relocated Netty's included) and the contents of arrays, collections, maps and
 * atomic references; looks into no other class of the JDK.
 */
public final class ReachableChannels {

  /** The channel interface of an unshaded Netty. */
  public static final String NETTY_CHANNEL = "io.netty.channel.Channel";
  /** Far more than a server or client with a few connections holds; a guard against a runaway walk. */
  private static final int MAX_OBJECTS = 500_000;

  private ReachableChannels() {}

  /**
   * The classes of the channels reachable from {@code root} that implement {@code channelInterface}
   * ({@link #NETTY_CHANNEL}, or a relocated Netty's), by name.
   */
  public static Set<String> of(Object root, String channelInterface) throws ClassNotFoundException {
    Class<?> channel = Class.forName(channelInterface, false, root.getClass().getClassLoader());
    Set<String> found = new TreeSet<>();
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<Object> pending = new ArrayDeque<>();
    pending.add(root);
    while (!pending.isEmpty() && seen.size() < MAX_OBJECTS) {
      Object object = pending.poll();
      if (object == null || !seen.add(object)) {
        continue;
      }
      if (channel.isInstance(object)) {
        found.add(object.getClass().getName());
      }
      for (Object next : references(object)) {
        if (next != null && !seen.contains(next)) {
          pending.add(next);
        }
      }
    }
    return found;
  }

  private static Iterable<?> references(Object object) {
    Class<?> type = object.getClass();
    if (type.isArray()) {
      if (type.getComponentType().isPrimitive()) {
        return Collections.emptyList();
      }
      int length = Array.getLength(object);
      Object[] elements = new Object[length];
      for (int i = 0; i < length; i++) {
        elements[i] = Array.get(object, i);
      }
      return Arrays.asList(elements);
    }
    try {
      if (object instanceof Collection<?> collection && !tripleClass(type)) {
        return Arrays.asList(collection.toArray());
      }
      if (object instanceof Map<?, ?> map && !tripleClass(type)) {
        List<Object> keysAndValues = new ArrayList<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          keysAndValues.add(entry.getKey());
          keysAndValues.add(entry.getValue());
        }
        return keysAndValues;
      }
    } catch (RuntimeException changedWhileCopied) {
      // A collection another thread changed under the copy (a plain HashSet): the walk goes on without it.
      return Collections.emptyList();
    }
    if (object instanceof AtomicReference<?> reference) {
      return Collections.singletonList(reference.get());
    }
    List<Object> values = new ArrayList<>();
    for (Class<?> c = type; c != null && tripleClass(c); c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
          continue;
        }
        field.setAccessible(true);
        try {
          values.add(field.get(object));
        } catch (IllegalAccessException e) {
          throw new AssertionError("reading " + field, e);
        }
      }
    }
    return values;
  }

  private static boolean tripleClass(Class<?> type) {
    return type.getName().startsWith("io.triplerpc.");
  }
}
