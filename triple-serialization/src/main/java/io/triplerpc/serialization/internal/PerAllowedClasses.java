package io.triplerpc.serialization.internal;

import io.triplerpc.serialization.object.AllowedClasses;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.BiFunction;

/**
 * One value (a hessian factory, a Jackson mapper) per class loader and {@link AllowedClasses}, that is per
 * service, shared by that service's codecs and gone with them: it is held weakly here and strongly by the
 * codecs that use it, so servers and clients built and dropped leave nothing behind.
 *
 * <p>Thread-safe; {@link #get} takes a lock, and is called when codecs are built, never per call.
 */
public final class PerAllowedClasses<T> {

  /** Weak in the key, and in the value, which refers to its key. */
  private final Map<AllowedClasses, Map<ClassLoader, WeakReference<T>>> values = new WeakHashMap<>();
  private final BiFunction<ClassLoader, AllowedClasses, T> create;

  /** Values made by {@code create} on first use. */
  public PerAllowedClasses(BiFunction<ClassLoader, AllowedClasses, T> create) {
    this.create = create;
  }

  /** The value of {@code loader} and {@code allowed}, made now if no live one exists. */
  public synchronized T get(ClassLoader loader, AllowedClasses allowed) {
    Map<ClassLoader, WeakReference<T>> byLoader = values.computeIfAbsent(allowed, key -> new HashMap<>(2));
    WeakReference<T> reference = byLoader.get(loader);
    T value = reference == null ? null : reference.get();
    if (value == null) {
      value = create.apply(loader, allowed);
      byLoader.put(loader, new WeakReference<>(value));
    }
    return value;
  }
}
