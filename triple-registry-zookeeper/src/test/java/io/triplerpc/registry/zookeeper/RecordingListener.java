package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.fail;

import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.ServiceInstance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Applies what a registry pushes to a map of instances by address, as a consumer would, and lets a
 * test wait (on a monitor, woken by each delivery) until that map is what it expects. Records
 * violations of the listener contract instead of throwing them into the registry's thread.
 */
final class RecordingListener implements InstanceListener {

  private static final long TIMEOUT_SECONDS = 30;

  /** The instances as pushed so far, by address; guarded by this. */
  private final Map<String, ServiceInstance> instances = new HashMap<>();
  /** Every change, in delivery order; guarded by this. */
  private final List<InstanceChange> changes = new ArrayList<>();
  /** Contract violations seen; guarded by this. */
  private final List<String> violations = new ArrayList<>();
  private int resyncs;
  private int disconnects;
  /** Whether a call is in progress, to catch overlapping calls; guarded by this. */
  private boolean inCall;

  @Override
  public void onResync(Collection<ServiceInstance> all) {
    enter();
    synchronized (this) {
      resyncs++;
      instances.clear();
      for (ServiceInstance instance : all) {
        if (instances.put(instance.address(), instance) != null) {
          violations.add("resync lists " + instance.address() + " twice");
        }
      }
    }
    leave();
  }

  @Override
  public void onChanges(List<InstanceChange> list) {
    enter();
    synchronized (this) {
      if (resyncs == 0) {
        violations.add("changes before the first resync: " + list);
      }
      for (InstanceChange change : list) {
        changes.add(change);
        String address = change.instance().address();
        switch (change.kind()) {
          case ADDED:
            if (instances.put(address, change.instance()) != null) {
              violations.add("ADDED a known instance " + address);
            }
            break;
          case UPDATED:
            if (instances.put(address, change.instance()) == null) {
              violations.add("UPDATED an unknown instance " + address);
            }
            break;
          case REMOVED:
            if (instances.remove(address) == null) {
              violations.add("REMOVED an unknown instance " + address);
            }
            break;
          default:
            throw new AssertionError(change);
        }
      }
    }
    leave();
  }

  @Override
  public void onDisconnected(Throwable cause) {
    enter();
    synchronized (this) {
      disconnects++;
    }
    leave();
  }

  private synchronized void enter() {
    if (inCall) {
      violations.add("overlapping calls");
    }
    inCall = true;
  }

  private synchronized void leave() {
    inCall = false;
    notifyAll();
  }

  /** Waits until {@code condition} holds for the instances by address; fails after 30 s. */
  synchronized void await(String what, Predicate<Map<String, ServiceInstance>> condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (!condition.test(instances)) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        fail("Timed out waiting for " + what + "; instances " + instances.keySet() + ", resyncs " + resyncs
            + ", last changes " + changes.subList(Math.max(0, changes.size() - 5), changes.size()));
      }
      TimeUnit.NANOSECONDS.timedWait(this, remaining);
    }
  }

  /** Waits until at least {@code count} resyncs arrived. */
  synchronized void awaitResyncs(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (resyncs < count) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        fail("Timed out waiting for resync " + count + "; got " + resyncs);
      }
      TimeUnit.NANOSECONDS.timedWait(this, remaining);
    }
  }

  /** Waits until at least {@code count} disconnections were reported. */
  synchronized void awaitDisconnects(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (disconnects < count) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        fail("Timed out waiting for disconnection " + count + "; got " + disconnects);
      }
      TimeUnit.NANOSECONDS.timedWait(this, remaining);
    }
  }

  synchronized Map<String, ServiceInstance> instances() {
    return Map.copyOf(instances);
  }

  synchronized List<InstanceChange> changes() {
    return List.copyOf(changes);
  }

  synchronized int resyncs() {
    return resyncs;
  }

  synchronized List<String> violations() {
    return List.copyOf(violations);
  }
}
