package io.triplerpc.registry;

import java.util.Collection;
import java.util.List;

/**
 * Receives one application's instances from a registry: first the whole list, then changes. A
 * registry calls a listener from one thread at a time, in order; calls should return quickly.
 */
public interface InstanceListener {

  /**
   * The whole current list of instances: the first delivery, and again after the registry
   * reconnects (the listener works out what was added and removed meanwhile).
   */
  void onResync(Collection<ServiceInstance> instances);

  /** Changes since the previous delivery, oldest first. */
  void onChanges(List<InstanceChange> changes);

  /**
   * The registry lost contact; instances delivered so far are still the best knowledge, and a
   * resync follows when contact is back.
   */
  default void onDisconnected(Throwable cause) {}
}
