package io.triplerpc.registry;

/** An application's instances being pushed to an {@link InstanceListener}; close to stop. */
public interface Subscription extends AutoCloseable {

  /**
   * A consumer lost a connection to one of the instances, or could not open one: a registry that looks
   * its list up rather than having it pushed (DNS) looks again, as soon as its rules allow. Registries
   * that push their changes ignore it (the default). Never blocks.
   */
  default void refresh() {}

  /** Stops the pushes; the listener is called no more after this returns. Idempotent. */
  @Override
  void close();
}
