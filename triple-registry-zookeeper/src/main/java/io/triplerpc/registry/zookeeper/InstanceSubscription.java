package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.cache.CuratorCacheStorage;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One application's instance znodes pushed to an {@link InstanceListener}: a {@link CuratorCache} on
 * the application's instances path turned into one resync (when the cache has read them all) and
 * then one change per znode event. Nothing is read again on a change but the changed znode.
 *
 * <p>Every event is handed to the registry's serial notifier, which alone touches the state below
 * and calls the listener, so the listener hears everything in order, one call at a time. After a
 * reconnection the cache is replaced by a new one, whose initial read becomes a new resync.
 */
final class InstanceSubscription implements Subscription {

  private static final Logger logger = LoggerFactory.getLogger(InstanceSubscription.class);

  private final CuratorFramework client;
  /** Decodes the instance znodes. */
  private final ZnodeLayout layout;
  private final String application;
  /** The parent of the instance znodes. */
  private final String path;
  private final InstanceListener listener;
  /** Runs one task at a time, in order: every call below that touches the notifier state. */
  private final Executor notifier;
  /** Forgets this subscription in the registry. */
  private final Consumer<InstanceSubscription> onClose;
  /** Once set, the listener is called no more. */
  private volatile boolean closed;

  // Notifier state: only tasks on the notifier touch these.
  /** The cache of the current generation, or null before the first. */
  private CuratorCache cache;
  /** Bumped with each new cache; events of older caches are dropped. */
  private int generation;
  /** Whether the current cache has read every znode and the resync was delivered. */
  private boolean initialized;
  /** The instances as the listener knows them (before initialization: as read so far), by znode name. */
  private final Map<String, ServiceInstance> instances = new HashMap<>();
  /** The znode names read by earlier caches and not yet compared with the current one's initial read. */
  private final Set<String> previous = new HashSet<>();

  InstanceSubscription(CuratorFramework client, ZnodeLayout layout, String application, String path,
      InstanceListener listener, Executor notifier, Consumer<InstanceSubscription> onClose) {
    this.client = client;
    this.layout = layout;
    this.application = application;
    this.path = path;
    this.listener = listener;
    this.notifier = notifier;
    this.onClose = onClose;
  }

  /** Starts reading; the first resync follows. */
  void start() {
    execute(this::newCache);
  }

  /** The registry's connection changed: the listener hears of a loss, and a reconnection resyncs. */
  void connectionStateChanged(ConnectionState state) {
    switch (state) {
      case SUSPENDED:
        execute(() -> deliverDisconnected(new KeeperException.ConnectionLossException()));
        break;
      case LOST:
        execute(() -> deliverDisconnected(new KeeperException.SessionExpiredException()));
        break;
      case RECONNECTED:
        execute(this::newCache);
        break;
      default:
        break;
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    onClose.accept(this);
    execute(this::closeCache);
  }

  /** The registry is closing its client, which ends the cache's watch: only stops the listener. */
  void clientClosing() {
    closed = true;
  }

  private void execute(Runnable task) {
    try {
      notifier.execute(task);
    } catch (RejectedExecutionException e) {
      // The registry is closed: nothing more to deliver.
    }
  }

  private void newCache() {
    closeCache();
    if (closed) {
      return;
    }
    int current = ++generation;
    initialized = false;
    // What the previous cache read, so that znodes gone meanwhile are reported gone to the layout.
    previous.addAll(instances.keySet());
    instances.clear();
    cache = CuratorCache.builder(client, path)
        .withStorage(CuratorCacheStorage.dataNotCached())
        .withExceptionHandler(e -> logger.warn("Reading the instances of {} failed", application, e))
        .build();
    cache.listenable().addListener(new CuratorCacheListener() {
      @Override
      public void event(Type type, ChildData oldData, ChildData data) {
        execute(() -> znodeChanged(current, type, oldData, data));
      }

      @Override
      public void initialized() {
        execute(() -> cacheInitialized(current));
      }
    });
    cache.start();
  }

  private void closeCache() {
    if (cache != null) {
      cache.close();
      cache = null;
    }
  }

  private void znodeChanged(int from, CuratorCacheListener.Type type, ChildData oldData, ChildData data) {
    if (closed || from != generation) {
      return;
    }
    String znodePath = (data != null ? data : oldData).getPath();
    if (znodePath.equals(path)) {
      return; // The parent itself, created and deleted (as a container) with its first and last child.
    }
    ZKPaths.PathAndNode pathAndNode = ZKPaths.getPathAndNode(znodePath);
    if (!pathAndNode.getPath().equals(path)) {
      logger.warn("Ignoring {}: instance znodes have no children", znodePath);
      return;
    }
    String name = pathAndNode.getNode();
    if (type == CuratorCacheListener.Type.NODE_DELETED) {
      layout.instanceRemoved(application, name);
      ServiceInstance removed = instances.remove(name);
      if (removed != null && initialized) {
        deliver(InstanceChange.removed(removed));
      }
      return;
    }
    ServiceInstance instance;
    try {
      instance = layout.decodeInstance(application, name, data.getData());
    } catch (IllegalArgumentException e) {
      // What the listener knows of this znode, if anything, stays: a bad write never wipes an address.
      logger.warn("Ignoring the malformed instance znode {}: {}", znodePath, e.getMessage());
      return;
    }
    ServiceInstance previous = instances.put(name, instance);
    if (!initialized) {
      return;
    }
    if (previous == null) {
      deliver(InstanceChange.added(instance));
    } else if (!previous.equals(instance)) {
      deliver(InstanceChange.updated(instance));
    }
  }

  private void cacheInitialized(int from) {
    if (closed || from != generation) {
      return;
    }
    initialized = true;
    for (String name : previous) {
      if (!instances.containsKey(name)) {
        layout.instanceRemoved(application, name);
      }
    }
    previous.clear();
    List<ServiceInstance> all = List.copyOf(instances.values());
    call(() -> listener.onResync(all));
  }

  private void deliver(InstanceChange change) {
    List<InstanceChange> changes = List.of(change);
    call(() -> listener.onChanges(changes));
  }

  private void deliverDisconnected(Throwable cause) {
    if (!closed) {
      call(() -> listener.onDisconnected(cause));
    }
  }

  private void call(Runnable delivery) {
    if (closed) {
      return;
    }
    try {
      delivery.run();
    } catch (RuntimeException e) {
      logger.warn("Instance listener of {} threw", application, e);
    }
  }
}
