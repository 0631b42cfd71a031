package io.triplerpc.registry;

/** An application's instances being pushed to an {@link InstanceListener}; close to stop. */
public interface Subscription extends AutoCloseable {

  /** Stops the pushes; the listener is called no more after this returns. Idempotent. */
  @Override
  void close();
}
