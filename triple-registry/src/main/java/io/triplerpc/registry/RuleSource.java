package io.triplerpc.registry;

import java.util.function.Consumer;

/**
 * A config center that holds governance rules (Apache Dubbo's tag and condition routers and its
 * dynamic configuration) as text under a key, and tells its watchers when a rule changes.
 *
 * <p>ZooKeeper's implementation is {@code ZooKeeperRegistry.ruleSource()}, in Dubbo 3.3's layout
 * ({@code /dubbo/config/dubbo/<key>}); another config center (Nacos, etcd) implements this interface
 * with the same keys, which {@link RuleKeys} builds. What a rule means is not this interface's concern:
 * it carries text, and the consumer parses it.
 *
 * <p>Implementations are thread-safe.
 */
public interface RuleSource extends AutoCloseable {

  /**
   * Watches the rule under {@code key}: {@code listener} receives the rule's text as it is now (null if
   * there is none) and then each new text, null when the rule is removed, until the watch is closed.
   * Calls to a listener are in order and never concurrent; they come from the source's own thread and
   * must not block. A text equal to the one last delivered may be skipped. Never blocks.
   *
   * @throws IllegalArgumentException if {@code key} cannot name a rule in this source
   * @throws IllegalStateException if this source is closed
   */
  Watch watch(String key, Consumer<String> listener);

  /** Ends every watch; listeners are called no more after this returns. Idempotent. */
  @Override
  void close();

  /** A rule being watched; close to stop. */
  interface Watch extends AutoCloseable {

    /** Stops the notifications; the listener is called no more after this returns. Idempotent. */
    @Override
    void close();
  }
}
