package io.triplerpc.registry.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LiveRuleTest {

  private final AtomicInteger changes = new AtomicInteger();
  private final LiveRule<TagRule> rule = new LiveRule<>("shop.tag-router", RuleParser::parseTagRule,
      changes::incrementAndGet);

  @Test
  void noRuleUntilOneArrivesThenItIsInForce() {
    rule.accept(null);
    assertNull(rule.rule());
    assertEquals(0, rule.current().generation());

    rule.accept(RuleParserTest.TAG_RULE);

    assertEquals(2, rule.rule().tags().size());
    assertEquals(1, rule.current().generation());
    assertEquals(1, changes.get());
  }

  @Test
  void aMalformedRuleLeavesTheLastGoodOneInForceWhole() {
    rule.accept(RuleParserTest.TAG_RULE);
    LiveRule.State<TagRule> good = rule.current();

    // The first tag is fine, the second is not: nothing of it applies, not even the first tag.
    rule.accept("tags:\n  - name: blue\n    addresses: [10.0.0.9]\n  - name: green\n    addresses: [10.0.0.999]\n");
    rule.accept("tags: [");

    assertSame(good, rule.current());
    assertEquals(1, changes.get());
  }

  @Test
  void aGoodRuleAfterAMalformedOneIsInForce() {
    rule.accept("tags: [");
    assertNull(rule.rule());

    rule.accept(RuleParserTest.TAG_RULE);

    assertEquals("gray", rule.rule().tags().get(0).name());
    assertEquals(1, changes.get());
  }

  @Test
  void aRemovedRuleLeavesNoneInForceAndARepeatChangesNothing() {
    rule.accept(RuleParserTest.TAG_RULE);
    rule.accept(RuleParserTest.TAG_RULE);
    assertEquals(1, rule.current().generation());

    rule.accept(null);
    rule.accept(null);

    assertNull(rule.rule());
    assertEquals(2, rule.current().generation());
    assertEquals(2, changes.get());
  }
}
