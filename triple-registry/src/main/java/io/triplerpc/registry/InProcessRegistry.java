package io.triplerpc.registry;

import io.triplerpc.registry.internal.Threads;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A registry held in this JVM's memory, for tests and for providers and consumers in one process.
 * Changes reach listeners on one notifier thread, in the order they were made.
 */
public final class InProcessRegistry implements Registry {

  private static final Logger log = LoggerFactory.getLogger(InProcessRegistry.class);

  private final Object lock = new Object();
  private final Map<String, Application> applications = new HashMap<>();
  private final Map<String, MetadataInfo> metadata = new HashMap<>();
  private final Map<String, Set<String>> mapping = new HashMap<>();
  private final ExecutorService notifier = Executors.newSingleThreadExecutor(Threads.daemon("triple-registry-notifier"));
  private volatile boolean closed;

  /** One application's instances by address, and who listens to them. */
  private static final class Application {
    final Map<String, ServiceInstance> instances = new LinkedHashMap<>();
    final List<Subscriber> listeners = new ArrayList<>();
  }

  /** A listener and whether its subscription was closed (deliveries queued before are dropped). */
  private static final class Subscriber {
    final InstanceListener listener;
    volatile boolean closed;

    Subscriber(InstanceListener listener) {
      this.listener = listener;
    }

    /** Delivers unless closed; a listener that throws does not keep the others from hearing. */
    void deliver(java.util.function.Consumer<InstanceListener> delivery) {
      if (closed) {
        return;
      }
      try {
        delivery.accept(listener);
      } catch (RuntimeException e) {
        log.warn("A registry listener failed on a delivery: {}", e.toString(), e);
      }
    }
  }

  /** An empty registry. */
  public InProcessRegistry() {}

  @Override
  public CompletableFuture<Void> register(ServiceInstance instance) {
    synchronized (lock) {
      Application app = applications.computeIfAbsent(instance.application(), a -> new Application());
      ServiceInstance previous = app.instances.put(instance.address(), instance);
      if (previous == null) {
        notify(app, InstanceChange.added(instance));
      } else if (!previous.equals(instance)) {
        notify(app, InstanceChange.updated(instance));
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    synchronized (lock) {
      Application app = applications.get(instance.application());
      ServiceInstance removed = app == null ? null : app.instances.remove(instance.address());
      if (removed != null) {
        notify(app, InstanceChange.removed(removed));
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  /** Called with the lock held, so changes are queued in the order they were made. */
  private void notify(Application app, InstanceChange change) {
    if (app.listeners.isEmpty()) {
      return;
    }
    List<Subscriber> listeners = List.copyOf(app.listeners);
    List<InstanceChange> changes = List.of(change);
    execute(() -> listeners.forEach(subscriber -> subscriber.deliver(listener -> listener.onChanges(changes))));
  }

  private void execute(Runnable task) {
    try {
      notifier.execute(task);
    } catch (RejectedExecutionException e) {
      // Closed: listeners hear nothing more, as promised.
    }
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo info) {
    synchronized (lock) {
      metadata.putIfAbsent(key(info.application(), info.revision()), info);
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    MetadataInfo info;
    synchronized (lock) {
      info = metadata.get(key(application, revision));
    }
    return info != null
        ? CompletableFuture.completedFuture(info)
        : CompletableFuture.failedFuture(new IllegalStateException(
            "No metadata for " + application + " at revision " + revision));
  }

  private static String key(String application, String revision) {
    return application + '/' + revision;
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    synchronized (lock) {
      mapping.computeIfAbsent(serviceName, s -> new LinkedHashSet<>()).add(application);
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    synchronized (lock) {
      return CompletableFuture.completedFuture(Set.copyOf(mapping.getOrDefault(serviceName, Set.of())));
    }
  }

  @Override
  public Subscription subscribe(String application, InstanceListener listener) {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("Registry closed");
      }
      Application app = applications.computeIfAbsent(application, a -> new Application());
      Subscriber subscriber = new Subscriber(listener);
      app.listeners.add(subscriber);
      List<ServiceInstance> snapshot = List.copyOf(app.instances.values());
      execute(() -> subscriber.deliver(l -> l.onResync(snapshot)));
      return () -> {
        subscriber.closed = true;
        synchronized (lock) {
          app.listeners.remove(subscriber);
        }
      };
    }
  }

  /** Ends every subscription of every user of this registry; it stores nothing more for anyone. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      applications.values().forEach(app -> {
        app.listeners.forEach(subscriber -> subscriber.closed = true);
        app.listeners.clear();
      });
    }
    notifier.shutdown();
  }
}
