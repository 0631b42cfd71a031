package io.triplerpc.internal;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * Executors that start a virtual thread per task, on Java 21 and newer. Triple is compiled for Java 17,
 * where {@code Thread.ofVirtual()} does not exist: it is looked up by reflection, once per executor
 * made, and each task then costs only the {@link ThreadFactory}'s {@code newThread} and a start.
 */
public final class VirtualThreads {

  /** The first Java version whose virtual threads are not a preview feature (JEP 444). */
  static final int MIN_JAVA = 21;

  /** {@code Thread.isVirtual()} where the JDK has it (21 on), else null: there is no virtual thread then. */
  private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

  /**
   * What a virtual thread allocates buffers from instead of a server's pooled allocator. A pooled allocator
   * makes each thread that allocates a cache, under its lock, the first time: a service on virtual threads has
   * a new thread per call, so every call would make one, and calls that meet at the lock pin their carrier
   * (the JDK cannot unmount a virtual thread there; VirtualThreadsTest saw it). Netty's adaptive allocator
   * keeps no cache per plain thread and takes no monitor.
   */
  private static final ByteBufAllocator FOR_VIRTUAL_THREADS =
      ByteBufAllocator.DEFAULT instanceof AdaptiveByteBufAllocator ? ByteBufAllocator.DEFAULT : new AdaptiveByteBufAllocator();

  private VirtualThreads() {}

  private static MethodHandle isVirtualHandle() {
    try {
      return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }

  /** Whether the calling thread is a virtual one. */
  public static boolean onVirtualThread() {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
    } catch (Throwable e) {
      throw new IllegalStateException("Thread.isVirtual() failed", e);
    }
  }

  /** {@code allocator}, or on a virtual thread one that takes no lock per new thread (see above). */
  public static ByteBufAllocator allocatorFor(ByteBufAllocator allocator) {
    return onVirtualThread() ? FOR_VIRTUAL_THREADS : allocator;
  }

  /**
   * An executor that runs each task on a new virtual thread named {@code name}. It owns no thread, so
   * there is nothing to shut down: a task still running when its server or client closes runs to its
   * end, on a daemon thread, as on any executor that is not shut down.
   *
   * @throws UnsupportedOperationException on Java before 21, naming the version running and the one needed
   */
  public static Executor perTask(String name) {
    ThreadFactory factory = factory(name, Runtime.version().feature());
    return task -> factory.newThread(task).start();
  }

  /** {@code Thread.ofVirtual().name(name).factory()}, or a refusal on Java {@code feature}. */
  static ThreadFactory factory(String name, int feature) {
    if (feature < MIN_JAVA) {
      throw unsupported(feature, null);
    }
    try {
      Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
      // Through the public interface: the builder's own class is not accessible.
      Class<?> builderType = Class.forName("java.lang.Thread$Builder");
      Method named = builderType.getMethod("name", String.class);
      Method factory = builderType.getMethod("factory");
      return (ThreadFactory) factory.invoke(named.invoke(builder, name));
    } catch (ReflectiveOperationException e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      throw unsupported(feature, cause);
    }
  }

  private static UnsupportedOperationException unsupported(int feature, Throwable cause) {
    return new UnsupportedOperationException("Virtual threads need Java " + MIN_JAVA + " or newer; this is Java " + feature,
        cause);
  }
}
