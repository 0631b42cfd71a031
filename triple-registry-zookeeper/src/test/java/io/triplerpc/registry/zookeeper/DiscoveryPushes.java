package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.testing.Signal;
import java.util.function.BooleanSupplier;

/**
 * A consumer's discovery observer that fires a {@link Signal} on every push it applies and every change
 * of an export's instances: a test awaits what calls see (which instances answer) again after each,
 * and so after the last, whatever the order in which ZooKeeper's watches delivered the changes.
 */
final class DiscoveryPushes implements DiscoveryObserver {

  private final Signal applied = new Signal();

  @Override
  public void instancesChanged(String service, String version, String group, int instances) {
    applied.fire();
  }

  @Override
  public void pushApplied(String application, long lagNanos) {
    applied.fire();
  }

  /** Returns once {@code condition} holds: now, or after one of the pushes to come. */
  void await(BooleanSupplier condition, String what) {
    applied.await(condition, what);
  }
}
