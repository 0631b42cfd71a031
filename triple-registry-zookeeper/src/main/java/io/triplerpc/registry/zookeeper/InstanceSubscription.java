package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One application's instance znodes pushed to an {@link InstanceListener}: a persistent recursive
 * watch on the application's instances path ({@link PersistentWatcher}, set once and set again by
 * Curator after every reconnection), the children read after each time it is set (one
 * {@code getChildren}, then their data 100 to a read-only {@code multi}, all pipelined) and turned into one resync,
 * then one change per znode event, for which only the changed znode is read.
 *
 * <p>Nothing but the decoded instances is kept per znode: no znode {@code Stat}, path or payload (a
 * {@code CuratorCache} keeps a {@code ChildData} and a {@code Stat} for each, about 230 bytes, and
 * reads the children of every child too, which instance znodes never have).
 *
 * <p>Every watch event and read answer is handed to the registry's serial notifier in the order the
 * ZooKeeper client received them (ZooKeeper orders a session's watch events and read answers as the
 * changes happened), and the notifier alone touches the state below and calls the listener, so the
 * listener hears everything in order, one call at a time.
 */
final class InstanceSubscription implements Subscription {

  private static final Logger logger = LoggerFactory.getLogger(InstanceSubscription.class);
  /**
   * Instance znodes read per request in the initial read. Their answer must fit in the client's
   * {@code jute.maxbuffer} (1 MB by default): 100 allows 10 KB per znode, where a Triple instance
   * takes under 100 bytes and a Dubbo one under 1 KB.
   */
  private static final int READ_BATCH = 100;

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
  /** The watch on the instances path and below; set again by Curator after each reconnection. */
  private final PersistentWatcher watcher;
  /** Once set, the listener is called no more. */
  private volatile boolean closed;

  // Notifier state: only tasks on the notifier touch these.
  /** Bumped each time the watch is set and the children are read again; older reads are dropped. */
  private int generation;
  /** Whether the current generation has read every child and the resync was delivered. */
  private boolean initialized;
  /** The current generation's child reads not yet answered. */
  private int pendingReads;
  /** Whether a read of the current generation failed: it resyncs nothing, and the next reconnection reads again. */
  private boolean readFailed;
  /**
   * Whether changes may have been missed since the children were last read: at first, and after each
   * loss of the connection. Curator sets the watch again on every connection, even the first (then
   * twice); the children are read again only when this says so.
   */
  private boolean watchLost = true;
  /** The instances as the listener knows them (before initialization: as read so far), by znode name. */
  private final Map<String, ServiceInstance> instances = new HashMap<>();
  /** The znode names read by earlier generations and not yet compared with the current one's read. */
  private final Set<String> previous = new HashSet<>();
  /**
   * One copy of each revision string read since the last resync: the instances of one revision share
   * it instead of holding one each (an instance's revision is a 20-40 character hash).
   */
  private final Map<String, String> revisions = new HashMap<>();

  InstanceSubscription(CuratorFramework client, ZnodeLayout layout, String application, String path,
      InstanceListener listener, Executor notifier, Consumer<InstanceSubscription> onClose) {
    this.client = client;
    this.layout = layout;
    this.application = application;
    this.path = path;
    this.listener = listener;
    this.notifier = notifier;
    this.onClose = onClose;
    this.watcher = new PersistentWatcher(client, path, true);
  }

  /** Starts watching and reading; the first resync follows. */
  void start() {
    watcher.getListenable().addListener(this::watched);
    watcher.getResetListenable().addListener(() -> execute(this::readAll));
    watcher.start();
  }

  /**
   * The registry's connection changed: the listener hears of a loss. A reconnection resyncs once the
   * watch is set again (its reset listener), so that no change falls between the read and the watch.
   */
  void connectionStateChanged(ConnectionState state) {
    switch (state) {
      case SUSPENDED:
        execute(() -> disconnected(new KeeperException.ConnectionLossException()));
        break;
      case LOST:
        execute(() -> disconnected(new KeeperException.SessionExpiredException()));
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
    watcher.close();
  }

  /** The registry is closing its client, which ends the watch: only stops the listener. */
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

  /** On the ZooKeeper client's event thread: a znode at or under the path changed. */
  private void watched(WatchedEvent event) {
    if (closed || event.getPath() == null || event.getPath().equals(path)) {
      return; // A connection event (the registry hears those), or the parent, created and deleted as a container.
    }
    String name = childName(event.getPath());
    if (name == null) {
      return;
    }
    switch (event.getType()) {
      case NodeCreated, NodeDataChanged -> read(name, -1);
      case NodeDeleted -> execute(() -> znodeDeleted(name));
      default -> {
        // Children of an instance znode: none are expected, and none are read.
      }
    }
  }

  /** The name of the instance znode at {@code znodePath}, or null (logged) if it is not one. */
  private String childName(String znodePath) {
    ZKPaths.PathAndNode pathAndNode = ZKPaths.getPathAndNode(znodePath);
    if (!pathAndNode.getPath().equals(path)) {
      logger.warn("Ignoring {}: instance znodes have no children", znodePath);
      return null;
    }
    return pathAndNode.getNode();
  }

  /** On the notifier: the watch is set (again): reads every child, for a resync. */
  private void readAll() {
    if (closed || !watchLost) {
      return;
    }
    watchLost = false;
    int current = ++generation;
    initialized = false;
    pendingReads = 0;
    readFailed = false;
    // What the earlier generations read, so that znodes gone meanwhile are reported gone to the layout.
    previous.addAll(instances.keySet());
    instances.clear();
    revisions.clear();
    try {
      client.getChildren().inBackground((c, event) -> {
        int code = event.getResultCode();
        if (code == KeeperException.Code.OK.intValue()) {
          List<String> children = event.getChildren();
          execute(() -> childrenListed(current, children.size()));
          for (int from = 0; from < children.size(); from += READ_BATCH) {
            readBatch(children.subList(from, Math.min(children.size(), from + READ_BATCH)), current);
          }
        } else if (code == KeeperException.Code.NONODE.intValue()) {
          execute(() -> childrenListed(current, 0));
        } else {
          logFailure(path, code);
          execute(() -> generationFailed(current));
        }
      }).forPath(path);
    } catch (Exception e) {
      // Curator throws here only when it cannot queue the operation (the client is closed).
      logger.debug("Could not read the instances of {}", application, e);
    }
  }

  /**
   * Reads the instance znodes {@code names} for the initial read of generation {@code from}, in one
   * read-only {@code multi} (ZooKeeper 3.6+): one request and one answer for them all instead of one
   * each, which is most of what reading an application's instances costs both sides. Called on the
   * ZooKeeper client's event thread.
   */
  private void readBatch(List<String> names, int from) {
    List<Op> reads = new ArrayList<>(names.size());
    for (String name : names) {
      reads.add(Op.getData(ZKPaths.makePath(path, name)));
    }
    try {
      client.getZookeeperClient().getZooKeeper().multi(reads, (code, p, context, results) -> {
        if (code != KeeperException.Code.OK.intValue() || results == null || results.size() != names.size()) {
          logFailure(path, code); // A reconnection reads everything again.
          execute(() -> generationFailed(from));
          return;
        }
        execute(() -> batchRead(from, names, results));
      }, null);
    } catch (Exception e) {
      // The client is closed, or between connections (then a reconnection reads everything again).
      logger.debug("Could not read the instances of {}", application, e);
      execute(() -> generationFailed(from));
    }
  }

  private void batchRead(int from, List<String> names, List<OpResult> results) {
    if (closed || from != generation) {
      return;
    }
    for (int i = 0; i < names.size(); i++) {
      OpResult result = results.get(i);
      if (result instanceof OpResult.GetDataResult read) {
        instanceRead(names.get(i), read.getData());
      } else if (result instanceof OpResult.ErrorResult error
          && error.getErr() != KeeperException.Code.NONODE.intValue()) {
        // NONODE: deleted since, and its deletion event comes or came in order.
        logFailure(ZKPaths.makePath(path, names.get(i)), error.getErr());
        generationFailed(from);
      }
      readDone(from);
    }
  }

  /**
   * Reads one instance znode: for the initial read of generation {@code from}, or for a watch event
   * ({@code from} -1). Called on the ZooKeeper client's event thread, or the notifier.
   */
  private void read(String name, int from) {
    try {
      client.getData().inBackground((c, event) -> {
        int code = event.getResultCode();
        if (code == KeeperException.Code.OK.intValue()) {
          byte[] payload = event.getData();
          execute(() -> znodeRead(from, name, payload));
        } else {
          if (code != KeeperException.Code.NONODE.intValue()) {
            logFailure(event.getPath(), code); // A reconnection reads everything again.
            execute(() -> generationFailed(from));
          }
          // NONODE: deleted since, and its deletion event comes or came in order.
          execute(() -> readDone(from));
        }
      }).forPath(ZKPaths.makePath(path, name));
    } catch (Exception e) {
      logger.debug("Could not read {} of {}", name, application, e);
    }
  }

  private void logFailure(String znodePath, int code) {
    if (!closed) {
      logger.warn("Reading {} failed: {}", znodePath, KeeperException.Code.get(code));
    }
  }

  /** A read of generation {@code from} failed: its resync would miss instances, so there is none. */
  private void generationFailed(int from) {
    if (from == generation && !initialized) {
      readFailed = true;
    }
  }

  private void childrenListed(int from, int children) {
    if (closed || from != generation) {
      return;
    }
    pendingReads += children;
    if (pendingReads == 0 && !readFailed) {
      initialize();
    }
  }

  private void readDone(int from) {
    if (closed || from != generation || initialized) {
      return;
    }
    if (--pendingReads == 0 && !readFailed) {
      initialize();
    }
  }

  private void znodeDeleted(String name) {
    if (closed) {
      return;
    }
    layout.instanceRemoved(application, name);
    ServiceInstance removed = instances.remove(name);
    if (removed != null && initialized) {
      deliver(InstanceChange.removed(removed));
    }
  }

  private void znodeRead(int from, String name, byte[] payload) {
    if (closed) {
      return;
    }
    if (from >= 0 && from != generation) {
      return; // An earlier generation's initial read: the current one reads the znode again.
    }
    try {
      instanceRead(name, payload);
    } finally {
      readDone(from);
    }
  }

  private void instanceRead(String name, byte[] payload) {
    ServiceInstance instance;
    try {
      instance = layout.decodeInstance(application, name, payload);
    } catch (IllegalArgumentException e) {
      // What the listener knows of this znode, if anything, stays: a bad write never wipes an address.
      logger.warn("Ignoring the malformed instance znode {}: {}", ZKPaths.makePath(path, name), e.getMessage());
      return;
    }
    instance = sharingRevision(instance);
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

  /** {@code instance}, or an equal one holding the copy of its revision string that other instances hold. */
  private ServiceInstance sharingRevision(ServiceInstance instance) {
    String revision = revisions.putIfAbsent(instance.revision(), instance.revision());
    if (revision == null || revision == instance.revision()) {
      return instance;
    }
    // Not withRevision, which keeps an instance whose revision is equal already.
    ServiceInstance shared = ServiceInstance.of(application, instance.host(), instance.port(), revision)
        .withWeight(instance.weight()).withStartTime(instance.startTimeMillis());
    if (!instance.extraPorts().isEmpty()) {
      shared = shared.withExtraPorts(instance.extraPorts());
    }
    return shared.equals(instance) ? shared : instance;
  }

  private void initialize() {
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

  private void disconnected(Throwable cause) {
    watchLost = true;
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
