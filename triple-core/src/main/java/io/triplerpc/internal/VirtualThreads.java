package io.triplerpc.internal;

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

  private VirtualThreads() {}

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
