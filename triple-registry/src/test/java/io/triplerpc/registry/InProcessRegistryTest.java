package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Deliveries of the in-process registry: one failing listener starves no other, closed ones hear nothing. */
class InProcessRegistryTest {

  @Test
  void aListenerThatThrowsDoesNotKeepOthersFromHearing() throws Exception {
    try (InProcessRegistry registry = new InProcessRegistry()) {
      registry.subscribe("app", new InstanceListener() {
        @Override
        public void onResync(Collection<ServiceInstance> instances) {}

        @Override
        public void onChanges(List<InstanceChange> changes) {
          throw new IllegalStateException("broken listener");
        }
      });
      CountDownLatch heard = new CountDownLatch(2);
      registry.subscribe("app", new InstanceListener() {
        @Override
        public void onResync(Collection<ServiceInstance> instances) {}

        @Override
        public void onChanges(List<InstanceChange> changes) {
          heard.countDown();
        }
      });
      registry.register(ServiceInstance.of("app", "10.0.0.1", 1, "r")).join();
      registry.register(ServiceInstance.of("app", "10.0.0.2", 1, "r")).join();
      assertTrue(heard.await(10, TimeUnit.SECONDS), "the second listener heard both changes");
    }
  }

  @Test
  void aClosedSubscriptionHearsNothingQueuedBeforeItClosed() throws Exception {
    try (InProcessRegistry registry = new InProcessRegistry()) {
      CountDownLatch gate = new CountDownLatch(1);
      AtomicInteger lateDeliveries = new AtomicInteger();
      // Holds the notifier thread, so the next deliveries queue up behind it.
      registry.subscribe("gate", new InstanceListener() {
        @Override
        public void onResync(Collection<ServiceInstance> instances) {
          try {
            gate.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }

        @Override
        public void onChanges(List<InstanceChange> changes) {}
      });
      Subscription subscription = registry.subscribe("app", new InstanceListener() {
        @Override
        public void onResync(Collection<ServiceInstance> instances) {
          lateDeliveries.incrementAndGet();
        }

        @Override
        public void onChanges(List<InstanceChange> changes) {
          lateDeliveries.incrementAndGet();
        }
      });
      registry.register(ServiceInstance.of("app", "10.0.0.1", 1, "r")).join();
      subscription.close();
      gate.countDown();
      CountDownLatch drained = new CountDownLatch(1);
      registry.subscribe("other", new InstanceListener() {
        @Override
        public void onResync(Collection<ServiceInstance> instances) {
          drained.countDown();
        }

        @Override
        public void onChanges(List<InstanceChange> changes) {}
      });
      assertTrue(drained.await(10, TimeUnit.SECONDS));
      assertEquals(0, lateDeliveries.get(), "nothing reached the closed subscription");
    }
  }
}
