package io.triplerpc.registry.internal;

import java.util.concurrent.ThreadFactory;

/** Thread factories of the registry's background work. */
public final class Threads {

  private Threads() {}

  /**
   * Daemon threads named {@code name}: registry notifiers, timers and retries must never keep a JVM
   * alive that the application is ending.
   */
  public static ThreadFactory daemon(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
