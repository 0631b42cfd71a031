package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Registry} on ZooKeeper, through one Curator client and so one ZooKeeper session.
 *
 * <p>Each registered instance is an ephemeral znode that lives as long as the session; when the
 * session expires and a new one begins, this registry writes its instances again. Metadata and
 * mappings are persistent znodes, written once. A subscription reads an application's instances
 * once, then only the znodes that change; see {@link io.triplerpc.registry.zookeeper the layout}.
 *
 * <p>Thread-safe. Methods never block: ZooKeeper is called in the background, and futures complete
 * on the ZooKeeper client's event thread, so their dependent actions must not block either.
 * Listeners are called on one notifier thread per registry, in order.
 *
 * <pre>{@code
 * try (ZooKeeperRegistry registry = ZooKeeperRegistry.connect("127.0.0.1:2181")) {
 *   registry.register(ServiceInstance.of("greeter-app", "10.0.0.5", 50051, metadata.revision()));
 * }
 * }</pre>
 */
public final class ZooKeeperRegistry implements Registry {

  private static final Logger logger = LoggerFactory.getLogger(ZooKeeperRegistry.class);

  private final CuratorFramework client;
  private final ZnodeFormat format;
  private final EphemeralZnodes instances;
  /** Calls every listener of this registry, one task at a time. */
  private final ExecutorService notifier;
  private final Set<InstanceSubscription> subscriptions = ConcurrentHashMap.newKeySet();
  /** The session the instances were last written in; only the connection state thread touches it. */
  private long sessionId;
  private volatile boolean closed;

  private ZooKeeperRegistry(Builder builder) {
    this.format = new ZnodeFormat(builder.rootPath);
    this.client = CuratorFrameworkFactory.builder()
        .connectString(builder.connectString)
        .sessionTimeoutMs(Math.toIntExact(builder.sessionTimeout.toMillis()))
        .connectionTimeoutMs(Math.toIntExact(builder.connectionTimeout.toMillis()))
        .retryPolicy(new ExponentialBackoffRetry(100, 3, 2_000))
        .build();
    this.instances = new EphemeralZnodes(client);
    // A daemon: the notifier must never keep alive a JVM the application is ending.
    this.notifier = Executors.newSingleThreadExecutor(task -> {
      Thread thread = new Thread(task, "triple-zookeeper-notifier");
      thread.setDaemon(true);
      return thread;
    });
    client.getConnectionStateListenable().addListener((c, state) -> connectionStateChanged(state));
    client.start();
  }

  /** A registry on the ZooKeeper ensemble at {@code connectString} ({@code host:port,...}), with defaults. */
  public static ZooKeeperRegistry connect(String connectString) {
    return builder(connectString).build();
  }

  /** A builder for a registry on the ensemble at {@code connectString} ({@code host:port,...}). */
  public static Builder builder(String connectString) {
    return new Builder(connectString);
  }

  /** The Curator client, for tests that break its session. */
  CuratorFramework client() {
    return client;
  }

  private void connectionStateChanged(ConnectionState state) {
    logger.info("ZooKeeper connection {}", state);
    if (state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED) {
      long current = currentSessionId();
      boolean newSession = state == ConnectionState.RECONNECTED && current != sessionId;
      sessionId = current;
      instances.reconnected(newSession);
    }
    for (InstanceSubscription subscription : subscriptions) {
      subscription.connectionStateChanged(state);
    }
  }

  private long currentSessionId() {
    try {
      return client.getZookeeperClient().getZooKeeper().getSessionId();
    } catch (Exception e) {
      return -1; // Unknown: counts as a new session, so the instances are written again.
    }
  }

  @Override
  public CompletableFuture<Void> register(ServiceInstance instance) {
    return instances.put(format.instancePath(instance), ZnodeFormat.encodeInstance(instance));
  }

  @Override
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    return instances.delete(format.instancePath(instance));
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo metadata) {
    return createPersistent(
        format.metadataPath(metadata.application(), metadata.revision()), ZnodeFormat.encodeMetadata(metadata));
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    String path = format.metadataPath(application, revision);
    CompletableFuture<MetadataInfo> result = new CompletableFuture<>();
    background(result, (c, event) -> {
      KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
      if (code == KeeperException.Code.NONODE) {
        result.completeExceptionally(new IllegalStateException(
            "No metadata for " + application + " at revision " + revision, KeeperException.create(code, path)));
      } else if (code != KeeperException.Code.OK) {
        result.completeExceptionally(KeeperException.create(code, path));
      } else {
        try {
          result.complete(ZnodeFormat.decodeMetadata(application, revision, event.getData()));
        } catch (IllegalArgumentException e) {
          result.completeExceptionally(new IllegalStateException("Malformed metadata in " + path, e));
        }
      }
    }, callback -> client.getData().inBackground(callback).forPath(path));
    return result;
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    return createPersistent(format.mappingPath(serviceName, application), new byte[0]);
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    String path = format.mappingPath(serviceName);
    CompletableFuture<Set<String>> result = new CompletableFuture<>();
    background(result, (c, event) -> {
      KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
      if (code == KeeperException.Code.NONODE) {
        result.complete(Set.of());
      } else if (code != KeeperException.Code.OK) {
        result.completeExceptionally(KeeperException.create(code, path));
      } else {
        result.complete(Set.copyOf(event.getChildren()));
      }
    }, callback -> client.getChildren().inBackground(callback).forPath(path));
    return result;
  }

  /** Creates a persistent znode (and its parents); one that exists already counts as written. */
  private CompletableFuture<Void> createPersistent(String path, byte[] payload) {
    CompletableFuture<Void> result = new CompletableFuture<>();
    background(result, (c, event) -> {
      KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
      if (code == KeeperException.Code.OK || code == KeeperException.Code.NODEEXISTS) {
        result.complete(null);
      } else {
        result.completeExceptionally(KeeperException.create(code, path));
      }
    }, callback -> client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
        .inBackground(callback).forPath(path, payload));
    return result;
  }

  /** A Curator call that takes a background callback. */
  private interface BackgroundCall {
    void start(BackgroundCallback callback) throws Exception;
  }

  private void background(CompletableFuture<?> result, BackgroundCallback callback, BackgroundCall call) {
    if (closed) {
      result.completeExceptionally(new IllegalStateException("Registry closed"));
      return;
    }
    try {
      call.start(callback);
    } catch (Exception e) {
      result.completeExceptionally(e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if {@code application} cannot be a znode name
   * @throws IllegalStateException if this registry is closed
   */
  @Override
  public Subscription subscribe(String application, InstanceListener listener) {
    Objects.requireNonNull(listener, "listener");
    String path = format.instancesPath(application);
    if (closed) {
      throw new IllegalStateException("Registry closed");
    }
    InstanceSubscription subscription =
        new InstanceSubscription(client, application, path, listener, notifier, subscriptions::remove);
    subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  /**
   * Ends the subscriptions and the session, which takes this registry's instance znodes with it. Waits
   * for nothing but ZooKeeper's acknowledgement of the session's end (not at all when disconnected).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (InstanceSubscription subscription : List.copyOf(subscriptions)) {
      subscription.clientClosing();
    }
    subscriptions.clear();
    instances.close();
    notifier.shutdown();
    client.close();
  }

  /**
   * Settings of a {@link ZooKeeperRegistry}; {@link #build} connects. Not thread-safe.
   */
  public static final class Builder {

    /** The root of the registry's znodes unless set. */
    public static final String DEFAULT_ROOT_PATH = "/triple";
    /** The session timeout asked of ZooKeeper unless set: an instance outlives its process this long. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);
    /** How long the client tries to connect before an operation fails, unless set. */
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

    private final String connectString;
    private String rootPath = DEFAULT_ROOT_PATH;
    private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
    private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;

    private Builder(String connectString) {
      Objects.requireNonNull(connectString, "connectString");
      if (connectString.isBlank()) {
        throw new IllegalArgumentException("connectString is blank");
      }
      this.connectString = connectString;
    }

    /** The root of the registry's znodes, such as {@code /triple} (the default): absolute, no trailing slash. */
    public Builder rootPath(String rootPath) {
      Objects.requireNonNull(rootPath, "rootPath");
      new ZnodeFormat(rootPath); // validates
      this.rootPath = rootPath;
      return this;
    }

    /**
     * The session timeout to ask of ZooKeeper (the server bounds it): how long instances outlive a
     * process that dies without closing its registry.
     */
    public Builder sessionTimeout(Duration timeout) {
      this.sessionTimeout = positiveMillis(timeout, "sessionTimeout");
      return this;
    }

    /** How long the client tries to connect before an operation fails. */
    public Builder connectionTimeout(Duration timeout) {
      this.connectionTimeout = positiveMillis(timeout, "connectionTimeout");
      return this;
    }

    private static Duration positiveMillis(Duration timeout, String name) {
      Objects.requireNonNull(timeout, name);
      if (timeout.toMillis() <= 0 || timeout.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(name + " out of range: " + timeout);
      }
      return timeout;
    }

    /** A registry with these settings; it connects in the background and never blocks here. */
    public ZooKeeperRegistry build() {
      return new ZooKeeperRegistry(this);
    }
  }
}
