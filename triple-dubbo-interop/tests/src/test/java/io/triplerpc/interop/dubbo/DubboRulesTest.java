package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.internal.rules.ConditionRule;
import io.triplerpc.registry.internal.rules.LiveRule;
import io.triplerpc.registry.internal.rules.OverrideRule;
import io.triplerpc.registry.internal.rules.RuleParser;
import io.triplerpc.registry.internal.rules.TagRule;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * Governance rules written by Apache Dubbo 3.3.6's own config center API (its {@code zookeeper}
 * {@code DynamicConfiguration}, as Dubbo Admin writes them), in its own JVM, read live by Triple's
 * {@code ZooKeeperRuleSource} under Dubbo's keys, and parsed: the paths and formats are Dubbo's.
 */
class DubboRulesTest {

  private static final String TAG_RULE = """
      configVersion: v3.0
      force: false
      enabled: true
      runtime: true
      key: shop
      tags:
        - name: gray
          addresses: [ "127.0.0.1:20880" ]
      """;

  private static final String CONDITION_RULE = """
      configVersion: v3.0
      scope: service
      force: true
      enabled: true
      key: io.triplerpc.interop.dubbo.api.PlainService
      conditions:
        - method = whoami => host != 127.0.0.2
      """;

  private static final String CONFIGURATORS = """
      configVersion: v3.0
      scope: application
      key: shop
      enabled: true
      configs:
        - side: provider
          addresses: [ "127.0.0.1:20880" ]
          parameters:
            weight: 300
      """;

  /** Each text the source delivered, then the rule took it. */
  private static final class Delivered<T> implements Consumer<String> {
    final LiveRule<T> rule;
    final BlockingQueue<Optional<String>> texts = new LinkedBlockingQueue<>();

    Delivered(String key, LiveRule.Parser<T> parser) {
      this.rule = new LiveRule<>(key, parser, () -> {});
    }

    @Override
    public void accept(String text) {
      rule.accept(text);
      texts.add(Optional.ofNullable(text));
    }

    /** Waits for {@code text} (empty: the rule's removal) to have been delivered and taken. */
    void awaitText(Optional<String> text) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (true) {
        Optional<String> next = texts.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (next == null) {
          throw new AssertionError("Triple never received " + text);
        }
        if (next.equals(text)) {
          return;
        }
      }
    }
  }

  @Test
  void rulesDubboWritesAreReadLiveWhereDubboKeepsThem() throws Exception {
    try (TestingServer zooKeeper = new TestingServer(true);
        ZooKeeperRegistry registry = ZooKeeperRegistry.builder(zooKeeper.getConnectString()).dubboLayout()
            .sessionTimeout(Duration.ofSeconds(5)).build();
        DubboProcess dubbo = DubboProcess.discoveringConsumer(zooKeeper.getConnectString(),
            "--application=rules-admin")) {
      RuleSource rules = registry.ruleSource();
      Delivered<TagRule> tags = new Delivered<>("tag", RuleParser::parseTagRule);
      Delivered<ConditionRule> conditions = new Delivered<>("condition", RuleParser::parseConditionRule);
      Delivered<OverrideRule> overrides = new Delivered<>("override", RuleParser::parseOverrideRule);
      try (RuleSource.Watch t = rules.watch(RuleKeys.tagRouter("shop"), tags);
          RuleSource.Watch c = rules.watch(
              RuleKeys.serviceConditionRouter(PlainService.class.getName(), null, null), conditions);
          RuleSource.Watch o = rules.watch(RuleKeys.applicationConfigurators("shop"), overrides)) {
        tags.awaitText(Optional.empty());

        dubbo.publishRule("shop.tag-router", TAG_RULE);
        dubbo.publishRule(PlainService.class.getName() + "::.condition-router", CONDITION_RULE);
        dubbo.publishRule("shop.configurators", CONFIGURATORS);

        tags.awaitText(Optional.of(TAG_RULE));
        TagRule tag = tags.rule.rule();
        assertEquals("gray", tag.tags().get(0).name());
        assertTrue(tag.tags().get(0).matches("127.0.0.1", 20880));
        conditions.awaitText(Optional.of(CONDITION_RULE));
        assertEquals(List.of("method = whoami => host != 127.0.0.2"), conditions.rule.rule().conditions());
        overrides.awaitText(Optional.of(CONFIGURATORS));
        assertEquals(Map.of("weight", "300"), overrides.rule.rule().items().get(0).parameters());

        // A malformed rule (a port out of range) reaches Triple, which keeps the last good one whole.
        LiveRule.State<TagRule> good = tags.rule.current();
        String malformed = TAG_RULE.replace("20880", "208800");
        dubbo.publishRule("shop.tag-router", malformed);
        tags.awaitText(Optional.of(malformed));
        assertSame(good, tags.rule.current());

        dubbo.removeRule("shop.tag-router");
        tags.awaitText(Optional.empty());
        assertNull(tags.rule.rule());
      }
    }
  }
}
