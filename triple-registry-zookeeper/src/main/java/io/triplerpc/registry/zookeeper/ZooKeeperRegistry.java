package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import java.time.Clock;
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
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Registry} on ZooKeeper, through one Curator client and so one ZooKeeper session.
 *
 * <p>Each registered instance is an ephemeral znode that lives as long as the session; when the
 * session expires and a new one begins, this registry writes its instances again. Metadata and
 * mappings are persistent znodes. A subscription reads an application's instances once, then only
 * the znodes that change.
 *
 * <p>Two layouts ({@link Layout}): Triple's own tree under {@code /triple}, or Apache Dubbo 3.3's
 * application-level one ({@code /services/{application}/{host:port}}, {@code /dubbo/mapping},
 * {@code /dubbo/metadata}), in which Dubbo 3.3 applications with {@code registry-type=service} and
 * Triple applications find each other. A registry whose root path is {@code /dubbo} uses Dubbo's;
 * see {@link io.triplerpc.registry.zookeeper the package} for both trees.
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
  private final Layout layout;
  /** Where the records live and what they hold, in that layout. */
  private final ZnodeLayout tree;
  private final EphemeralZnodes instances;
  /** Calls every listener of this registry, one task at a time. */
  private final ExecutorService notifier;
  private final Set<InstanceSubscription> subscriptions = ConcurrentHashMap.newKeySet();
  private final Set<ZooKeeperRuleSource> ruleSources = ConcurrentHashMap.newKeySet();
  /** The session the instances were last written in; only the connection state thread touches it. */
  private long sessionId;
  private volatile boolean closed;

  private ZooKeeperRegistry(Builder builder) {
    this.client = CuratorFrameworkFactory.builder()
        .connectString(builder.connectString)
        .sessionTimeoutMs(Math.toIntExact(builder.sessionTimeout.toMillis()))
        .connectionTimeoutMs(Math.toIntExact(builder.connectionTimeout.toMillis()))
        .retryPolicy(new ExponentialBackoffRetry(100, 3, 2_000))
        .build();
    this.instances = new EphemeralZnodes(client);
    Znodes znodes = new Znodes(client, () -> closed);
    this.layout = builder.layoutInForce();
    this.tree = layout == Layout.DUBBO
        ? new DubboLayout(builder.rootPathInForce(), builder.dubboServicesPath, znodes, Clock.systemUTC(),
            new DubboMetadataService(builder.dubboMetadataTimeout))
        : new TripleLayout(builder.rootPathInForce(), znodes);
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

  /** The layout of this registry's znodes. */
  public Layout layout() {
    return layout;
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
    return instances.put(tree.instancePath(instance), tree.encodeInstance(instance));
  }

  @Override
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    return instances.delete(tree.instancePath(instance));
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo metadata) {
    return tree.publishMetadata(metadata);
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    return tree.metadata(application, revision);
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    return tree.map(serviceName, application);
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    return tree.applications(serviceName);
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
    String path = tree.instancesPath(application);
    if (closed) {
      throw new IllegalStateException("Registry closed");
    }
    InstanceSubscription subscription =
        new InstanceSubscription(client, tree, application, path, listener, notifier, subscriptions::remove);
    subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  /**
   * Governance rules (tag and condition routers, dynamic configuration) where Apache Dubbo 3.3's
   * config center keeps them in this ensemble: {@code /dubbo/config/dubbo/<key>}. The source shares this
   * registry's session and is closed with it.
   *
   * @throws IllegalStateException if this registry is closed
   */
  public ZooKeeperRuleSource ruleSource() {
    return ruleSource(ZooKeeperRuleSource.DEFAULT_ROOT_PATH);
  }

  /**
   * Governance rules under another config root: {@code /<namespace>/config} for Dubbo's config center
   * {@code namespace}, or its {@code config.root-path} parameter.
   *
   * @throws IllegalArgumentException if {@code rootPath} is not absolute or ends with a slash
   * @throws IllegalStateException if this registry is closed
   */
  public ZooKeeperRuleSource ruleSource(String rootPath) {
    Objects.requireNonNull(rootPath, "rootPath");
    ZooKeeperRuleSource source = new ZooKeeperRuleSource(client, rootPath);
    ruleSources.add(source);
    if (closed) {
      ruleSources.remove(source);
      source.close();
      throw new IllegalStateException("Registry closed");
    }
    return source;
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
    for (ZooKeeperRuleSource source : List.copyOf(ruleSources)) {
      source.close();
    }
    ruleSources.clear();
    instances.close();
    tree.close();
    notifier.shutdown();
    client.close();
  }

  /** Which tree of znodes a registry reads and writes. */
  public enum Layout {
    /** Triple's own, under {@code /triple} unless another root is set. */
    TRIPLE,
    /**
     * Apache Dubbo 3.3's application-level service discovery: instances under {@code /services} (as
     * Dubbo's {@code ZookeeperServiceDiscovery} writes them), mapping and metadata under the root
     * ({@code /dubbo}, as Dubbo's {@code ZookeeperMetadataReport} writes them).
     */
    DUBBO
  }

  /**
   * Settings of a {@link ZooKeeperRegistry}; {@link #build} connects. Not thread-safe.
   */
  public static final class Builder {

    /** The root of the registry's znodes unless set, in the {@link Layout#TRIPLE} layout. */
    public static final String DEFAULT_ROOT_PATH = "/triple";
    /**
     * The root of Dubbo's metadata report (mapping and metadata), and the root path that selects the
     * {@link Layout#DUBBO} layout when no layout is set.
     */
    public static final String DUBBO_ROOT_PATH = "/dubbo";
    /** Where Dubbo keeps its instances unless set (Dubbo's registry parameter {@code rootPath}). */
    public static final String DEFAULT_DUBBO_SERVICES_PATH = "/services";
    /** How long a Dubbo provider's MetadataService is given to answer, unless set (Dubbo's default too). */
    public static final Duration DEFAULT_DUBBO_METADATA_TIMEOUT = Duration.ofSeconds(5);
    /** The session timeout asked of ZooKeeper unless set: an instance outlives its process this long. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);
    /** How long the client tries to connect before an operation fails, unless set. */
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

    private final String connectString;
    /** The root path set, or null for the layout's default. */
    private String rootPath;
    /** The layout set, or null for the one the root path implies. */
    private Layout layout;
    private String dubboServicesPath = DEFAULT_DUBBO_SERVICES_PATH;
    private Duration dubboMetadataTimeout = DEFAULT_DUBBO_METADATA_TIMEOUT;
    private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
    private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;

    private Builder(String connectString) {
      Objects.requireNonNull(connectString, "connectString");
      if (connectString.isBlank()) {
        throw new IllegalArgumentException("connectString is blank");
      }
      this.connectString = connectString;
    }

    /**
     * The root of the registry's znodes: absolute, no trailing slash. In the {@link Layout#TRIPLE}
     * layout, the root of everything ({@code /triple} by default); in the {@link Layout#DUBBO} layout,
     * the root of the metadata report, Dubbo's {@code dubbo.metadata-report.group} ({@code /dubbo} by
     * default). Unless {@link #layout} is set, {@code /dubbo} selects the Dubbo layout and any other
     * root Triple's.
     */
    public Builder rootPath(String rootPath) {
      this.rootPath = ZnodeFormat.checkRoot(Objects.requireNonNull(rootPath, "rootPath"));
      return this;
    }

    /**
     * Which tree to read and write; by default {@link Layout#DUBBO} if the root path is {@code /dubbo},
     * else {@link Layout#TRIPLE}.
     */
    public Builder layout(Layout layout) {
      this.layout = Objects.requireNonNull(layout, "layout");
      return this;
    }

    /** Apache Dubbo 3.3's layout, to share discovery with Dubbo applications: {@code layout(Layout.DUBBO)}. */
    public Builder dubboLayout() {
      return layout(Layout.DUBBO);
    }

    /**
     * In the Dubbo layout, the parent of the applications' instance znodes: {@code /services} by
     * default, as Dubbo's; set it to what Dubbo's registry URL says in {@code rootPath} (or
     * {@code group}) if it says anything.
     */
    public Builder dubboServicesPath(String path) {
      this.dubboServicesPath = ZnodeFormat.checkRoot(Objects.requireNonNull(path, "path"));
      return this;
    }

    /** In the Dubbo layout, how long a Dubbo provider's MetadataService is given to answer; 5 s by default. */
    public Builder dubboMetadataTimeout(Duration timeout) {
      this.dubboMetadataTimeout = positiveMillis(timeout, "timeout");
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

    /** The layout in force: the one set, else the one the root path implies. */
    Layout layoutInForce() {
      if (layout != null) {
        return layout;
      }
      return DUBBO_ROOT_PATH.equals(rootPath) ? Layout.DUBBO : Layout.TRIPLE;
    }

    /** The root path in force: the one set, else the layout's default. */
    String rootPathInForce() {
      if (rootPath != null) {
        return rootPath;
      }
      return layoutInForce() == Layout.DUBBO ? DUBBO_ROOT_PATH : DEFAULT_ROOT_PATH;
    }

    /** A registry with these settings; it connects in the background and never blocks here. */
    public ZooKeeperRegistry build() {
      return new ZooKeeperRegistry(this);
    }
  }
}
