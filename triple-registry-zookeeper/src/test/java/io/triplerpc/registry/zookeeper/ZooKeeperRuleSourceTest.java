package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.internal.rules.LiveRule;
import io.triplerpc.registry.internal.rules.RuleParser;
import io.triplerpc.registry.internal.rules.TagRule;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Rules read live from real ZooKeeper, where Dubbo 3.3's config center keeps them. */
class ZooKeeperRuleSourceTest {

  private static final String TAG_RULE = """
      force: false
      key: shop
      tags:
        - name: gray
          addresses: [ "10.0.0.5:20880" ]
      """;

  private static TestingServer server;
  private static ZooKeeperRegistry registry;

  @BeforeAll
  static void start() throws Exception {
    server = new TestingServer(true);
    registry = ZooKeeperRegistry.connect(server.getConnectString());
  }

  @AfterAll
  static void stop() throws Exception {
    registry.close();
    server.close();
  }

  /** Each text a listener receives, absent for none; in order. */
  private static final class Texts {
    final BlockingQueue<Optional<String>> received = new LinkedBlockingQueue<>();

    void accept(String text) {
      received.add(Optional.ofNullable(text));
    }

    Optional<String> next() throws InterruptedException {
      Optional<String> text = received.poll(20, TimeUnit.SECONDS);
      if (text == null) {
        throw new AssertionError("no text delivered in 20 s");
      }
      return text;
    }
  }

  private static CuratorFramework zk() {
    return registry.client();
  }

  private static void write(String path, String text) throws Exception {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (zk().checkExists().forPath(path) == null) {
      zk().create().creatingParentsIfNeeded().forPath(path, bytes);
    } else {
      zk().setData().forPath(path, bytes);
    }
  }

  @Test
  void aRuleIsReadWhereDubboWritesItAndEachChangeIsDelivered() throws Exception {
    ZooKeeperRuleSource source = registry.ruleSource();
    String key = RuleKeys.tagRouter("shop-a");
    assertEquals("/dubbo/config/dubbo/shop-a.tag-router", source.path(key));
    Texts texts = new Texts();

    try (RuleSource.Watch watch = source.watch(key, texts::accept)) {
      assertEquals(Optional.empty(), texts.next());          // no rule yet

      write("/dubbo/config/dubbo/shop-a.tag-router", TAG_RULE);
      assertEquals(Optional.of(TAG_RULE), texts.next());

      write("/dubbo/config/dubbo/shop-a.tag-router", TAG_RULE.replace("gray", "blue"));
      assertEquals(Optional.of(TAG_RULE.replace("gray", "blue")), texts.next());

      zk().delete().forPath("/dubbo/config/dubbo/shop-a.tag-router");
      assertEquals(Optional.empty(), texts.next());
    }
  }

  @Test
  void aRuleThatExistsBeforeTheWatchIsDeliveredFirst() throws Exception {
    write("/dubbo/config/dubbo/org.example.Greeter:1.0.0:.condition-router", "conditions: [ '=> host = a' ]");
    Texts texts = new Texts();

    try (RuleSource.Watch watch = registry.ruleSource()
        .watch(RuleKeys.serviceConditionRouter("org.example.Greeter", "1.0.0", null), texts::accept)) {
      assertEquals(Optional.of("conditions: [ '=> host = a' ]"), texts.next());
    }
  }

  @Test
  void aMalformedRuleInZooKeeperLeavesTheLastGoodOneInForce() throws Exception {
    Semaphore changes = new Semaphore(0);
    Texts texts = new Texts();
    LiveRule<TagRule> rule = new LiveRule<>("shop-b.tag-router", RuleParser::parseTagRule, changes::release);
    String path = "/dubbo/config/dubbo/shop-b.tag-router";
    try (RuleSource.Watch watch = registry.ruleSource().watch("shop-b.tag-router", text -> {
      rule.accept(text);
      texts.accept(text);
    })) {
      texts.next();
      write(path, TAG_RULE);
      assertTrue(changes.tryAcquire(20, TimeUnit.SECONDS));
      LiveRule.State<TagRule> good = rule.current();

      String malformed = "tags:\n  - name: gray\n    addresses: [ 10.0.0.5:99999 ]\n";
      write(path, malformed);
      assertEquals(Optional.of(TAG_RULE), texts.next());
      assertEquals(Optional.of(malformed), texts.next());     // delivered after the rule took it
      assertEquals(good, rule.current());
      assertEquals("gray", rule.rule().tags().get(0).name());
    }
  }

  @Test
  void aClosedWatchHearsNoMoreAndBadKeysAreRefused() throws Exception {
    ZooKeeperRuleSource source = registry.ruleSource();
    Texts texts = new Texts();
    RuleSource.Watch watch = source.watch("shop-c.configurators", texts::accept);
    assertEquals(Optional.empty(), texts.next());
    watch.close();

    write("/dubbo/config/dubbo/shop-c.configurators", "configs: []");
    // A second watch of the same key hears the write; the closed one, which would have heard it first, did not.
    Texts later = new Texts();
    try (RuleSource.Watch second = source.watch("shop-c.configurators", later::accept)) {
      assertEquals(Optional.of("configs: []"), later.next());
    }
    assertNull(texts.received.poll());

    assertThrows(IllegalArgumentException.class, () -> source.watch("a/b.tag-router", text -> {}));
    assertThrows(IllegalArgumentException.class, () -> source.watch(" ", text -> {}));
    assertThrows(IllegalArgumentException.class, () -> source.watch("..", text -> {}));
    source.close();
    assertThrows(IllegalStateException.class, () -> source.watch("shop.tag-router", text -> {}));
  }
}
