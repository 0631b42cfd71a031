package io.triplerpc.internal;

import io.triplerpc.Metadata;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Makes {@link Metadata} that converts a {@link HeaderSource} when first read. The constructor that
 * does so is private to {@code Metadata}: public API that transports need and applications should not
 * see, reached here through a private method handle.
 */
public final class LazyMetadata {

  private static final MethodHandle CONSTRUCTOR;

  static {
    try {
      CONSTRUCTOR = MethodHandles.privateLookupIn(Metadata.class, MethodHandles.lookup())
          .findConstructor(Metadata.class, MethodType.methodType(void.class, Function.class, Consumer.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private LazyMetadata() {}

  /** Metadata whose entries are {@code source}'s, converted when first needed. */
  public static Metadata of(HeaderSource source) {
    try {
      return (Metadata) CONSTRUCTOR.invokeExact((Function<String, String>) source, (Consumer<Metadata>) source);
    } catch (Throwable e) {
      throw new IllegalStateException("Metadata's lazy constructor failed", e);
    }
  }
}
