package io.triplerpc.registry.remote;

import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.ServiceInstance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Records what a registry pushes, and the instance list a consumer would hold (a resync replaces
 * it, changes edit it). Waits are on this object's monitor, woken by each event.
 */
final class RecordingInstanceListener implements InstanceListener {

  private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** One delivery: {@code RESYNC}, {@code CHANGES} or {@code DISCONNECTED}. */
  record Event(String type, List<ServiceInstance> instances, List<InstanceChange> changes, Throwable cause) {
    @Override
    public String toString() {
      return type + (instances != null ? instances : "") + (changes != null ? changes : "")
          + (cause != null ? "(" + cause + ")" : "");
    }
  }

  private final List<Event> events = new ArrayList<>();
  /** Instances by application and address, as the deliveries so far leave them. */
  private final Map<String, ServiceInstance> view = new LinkedHashMap<>();
  private String violation;

  @Override
  public synchronized void onResync(Collection<ServiceInstance> instances) {
    events.add(new Event("RESYNC", List.copyOf(instances), null, null));
    view.clear();
    instances.forEach(instance -> view.put(instance.address(), instance));
    notifyAll();
  }

  @Override
  public synchronized void onChanges(List<InstanceChange> changes) {
    if (events.stream().noneMatch(e -> e.type().equals("RESYNC"))) {
      violation = "changes before the first resync: " + changes;
    }
    events.add(new Event("CHANGES", null, List.copyOf(changes), null));
    for (InstanceChange change : changes) {
      if (change.kind() == InstanceChange.Kind.REMOVED) {
        view.remove(change.instance().address());
      } else {
        view.put(change.instance().address(), change.instance());
      }
    }
    notifyAll();
  }

  @Override
  public synchronized void onDisconnected(Throwable cause) {
    events.add(new Event("DISCONNECTED", null, null, cause));
    notifyAll();
  }

  /** Waits for event number {@code index} (from 0) and returns it. */
  synchronized Event awaitEvent(int index) throws InterruptedException {
    awaitTrue(() -> events.size() > index, "event #" + index);
    return events.get(index);
  }

  /** Waits until the first event from {@code from} on that matches {@code test}; returns its index. */
  synchronized int awaitEvent(int from, Predicate<Event> test, String what) throws InterruptedException {
    int[] found = {-1};
    awaitTrue(() -> {
      for (int i = from; i < events.size(); i++) {
        if (test.test(events.get(i))) {
          found[0] = i;
          return true;
        }
      }
      return false;
    }, what);
    return found[0];
  }

  /** Waits until the instance list, by address, matches {@code test}. */
  synchronized void awaitView(Predicate<Map<String, ServiceInstance>> test, String what) throws InterruptedException {
    awaitTrue(() -> test.test(view), what);
  }

  synchronized List<Event> events() {
    return List.copyOf(events);
  }

  synchronized Map<String, ServiceInstance> view() {
    return Map.copyOf(view);
  }

  /** A broken ordering promise (changes before a resync), or null. */
  synchronized String violation() {
    return violation;
  }

  private void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    while (!condition.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("Timed out waiting for " + what + "; events so far: " + events);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }
}
