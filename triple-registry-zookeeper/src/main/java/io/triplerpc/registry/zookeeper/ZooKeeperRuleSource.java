package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;

/**
 * Governance rules in ZooKeeper where Apache Dubbo 3.3's config center keeps them (Dubbo's
 * {@code ZookeeperDynamicConfiguration}): the rule under a key is the UTF-8 text of the znode
 * {@code <root>/<group>/<key>}, by default {@code /dubbo/config/dubbo/<key>}, as Dubbo Admin and
 * Dubbo's {@code DynamicConfiguration.publishConfig(key, "dubbo", text)} write it.
 *
 * <p>Each watch is a Curator cache of one znode: ZooKeeper's watches push every change, and the znode
 * may not exist yet. Obtained from {@link ZooKeeperRegistry#ruleSource()}, it shares the registry's
 * session; closing it ends its watches, not the session. Listeners are called on one thread per source,
 * in order. Thread-safe.
 */
public final class ZooKeeperRuleSource implements RuleSource {

  /** Dubbo's config root: {@code /<namespace>/config} with its default namespace {@code dubbo}. */
  public static final String DEFAULT_ROOT_PATH = "/dubbo/config";

  private final CuratorFramework client;
  /** {@code <root>/<group>}: the parent of every rule's znode. */
  private final String groupPath;
  /** Calls every listener of this source, one task at a time. */
  private final ExecutorService notifier;
  private final Set<KeyWatch> watches = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  ZooKeeperRuleSource(CuratorFramework client, String rootPath) {
    this.client = client;
    this.groupPath = ZnodeFormat.checkRoot(rootPath) + '/' + RuleKeys.GROUP;
    // A daemon: the notifier must never keep alive a JVM the application is ending.
    this.notifier = Executors.newSingleThreadExecutor(task -> {
      Thread thread = new Thread(task, "triple-zookeeper-rules");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** The znode that holds the rule under {@code key}. */
  public String path(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isBlank() || key.indexOf('/') >= 0 || key.equals(".") || key.equals("..")
        || key.chars().anyMatch(c -> c < 0x20)) {
      throw new IllegalArgumentException("Not a rule key: '" + key + "'");
    }
    return groupPath + '/' + key;
  }

  @Override
  public Watch watch(String key, Consumer<String> listener) {
    Objects.requireNonNull(listener, "listener");
    String path = path(key);
    if (closed) {
      throw new IllegalStateException("Rule source closed");
    }
    KeyWatch watch = new KeyWatch(path, listener);
    watches.add(watch);
    watch.start();
    return watch;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (KeyWatch watch : List.copyOf(watches)) {
      watch.close();
    }
    notifier.shutdown();
  }

  /** One znode's cache and the listener told of its text. */
  private final class KeyWatch implements Watch {

    private final String path;
    private final Consumer<String> listener;
    private final CuratorCache cache;
    /** Whether a text was delivered yet; only the notifier touches it and {@link #delivered}. */
    private boolean started;
    private String delivered;
    private volatile boolean watchClosed;

    KeyWatch(String path, Consumer<String> listener) {
      this.path = path;
      this.listener = listener;
      this.cache = CuratorCache.build(client, path, CuratorCache.Options.SINGLE_NODE_CACHE);
    }

    void start() {
      CuratorCacheListener changes = CuratorCacheListener.builder()
          .forAll((type, before, after) -> changed())
          .forInitialized(this::changed)
          .build();
      cache.listenable().addListener(changes, notifier);
      cache.start();
    }

    /** On the notifier: delivers the znode's text as the cache holds it now, unless already delivered. */
    private void changed() {
      if (watchClosed) {
        return;
      }
      Optional<ChildData> data = cache.get(path);
      String text = data.map(d -> d.getData() == null ? "" : new String(d.getData(), StandardCharsets.UTF_8))
          .orElse(null);
      if (started && Objects.equals(text, delivered)) {
        return;
      }
      started = true;
      delivered = text;
      listener.accept(text);
    }

    @Override
    public void close() {
      if (watchClosed) {
        return;
      }
      watchClosed = true;
      watches.remove(this);
      cache.close();
    }
  }
}
