package io.triplerpc.registry.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RuleParserTest {

  /** A tag rule as Dubbo Admin writes one (Dubbo's documentation's example, with its addresses). */
  static final String TAG_RULE = """
      configVersion: v3.0
      force: false
      enabled: true
      runtime: true
      key: shop-detail
      tags:
        - name: gray
          addresses: [ "10.0.0.5:20880", "10.0.0.6" ]
        - name: canary
          addresses:
            - 10.0.1.*:*
      """;

  static final String CONDITION_RULE = """
      configVersion: v3.0
      scope: service
      force: true
      runtime: false
      enabled: true
      priority: 2
      key: "org.example.Greeter::"
      conditions:
        - method = sayHello => host != 10.0.0.5
        - " => region = east"
      """;

  static final String OVERRIDE_RULE = """
      configVersion: v3.0
      scope: application
      key: shop-detail
      enabled: true
      configs:
        - side: provider
          addresses: [ "10.0.0.5:20880" ]
          parameters:
            weight: 200
        - side: consumer
          services: [ org.example.Greeter ]
          parameters:
            timeout: 6000
            retries: "0"
        - type: disabled
          enabled: false
          providerAddresses: [ 0.0.0.0 ]
          parameters: { disabled: true }
      """;

  @Test
  void aTagRuleAsDubboAdminWritesItParsesWhole() throws RuleException {
    TagRule rule = RuleParser.parseTagRule(TAG_RULE);

    assertEquals(new RuleHeader("shop-detail", null, "v3.0", true, false, true, 0), rule.header());
    assertEquals(List.of("gray", "canary"), rule.tags().stream().map(TagRule.Tag::name).toList());
    TagRule.Tag gray = rule.tags().get(0);
    assertTrue(gray.matches("10.0.0.5", 20880));
    assertFalse(gray.matches("10.0.0.5", 20881));
    assertTrue(gray.matches("10.0.0.6", 1));
    assertTrue(rule.tags().get(1).matches("10.0.1.77", 50051));
    assertFalse(rule.tags().get(1).matches("10.0.2.77", 50051));
  }

  @Test
  void aConditionRuleKeepsItsConditionsInOrder() throws RuleException {
    ConditionRule rule = RuleParser.parseConditionRule(CONDITION_RULE);

    assertEquals(new RuleHeader("org.example.Greeter::", "service", "v3.0", true, true, false, 2), rule.header());
    assertEquals(List.of("method = sayHello => host != 10.0.0.5", "=> region = east"), rule.conditions());
  }

  @Test
  void aDynamicConfigurationHasItsItemsSidesAndParametersAsText() throws RuleException {
    OverrideRule rule = RuleParser.parseOverrideRule(OVERRIDE_RULE);

    assertEquals(3, rule.items().size());
    OverrideRule.Item weight = rule.items().get(0);
    assertEquals(OverrideRule.Side.PROVIDER, weight.side());
    assertEquals(Map.of("weight", "200"), weight.parameters());
    assertTrue(weight.addresses().get(0).matches("10.0.0.5", 20880));
    OverrideRule.Item timeout = rule.items().get(1);
    assertEquals(OverrideRule.Side.CONSUMER, timeout.side());
    assertEquals(List.of("org.example.Greeter"), timeout.services());
    assertEquals(Map.of("timeout", "6000", "retries", "0"), timeout.parameters());
    OverrideRule.Item disabled = rule.items().get(2);
    assertNull(disabled.side());
    assertFalse(disabled.enabled());
    assertEquals(Map.of("disabled", "true"), disabled.parameters());
  }

  @Test
  void aRuleMarkedNotValidIsNotEnabled() throws RuleException {
    assertFalse(RuleParser.parseTagRule(TAG_RULE.replace("enabled: true", "valid: false")).header().enabled());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "",
      "   \n",
      "- just\n- a list\n",
      "tags: [",
      "force: false\n",                                                   // no tags
      "tags: []\n",
      "tags: 3\n",
      "tags:\n  - addresses: [10.0.0.1]\n",                                // no name
      "tags:\n  - name: gray\n",                                          // no addresses
      "tags:\n  - name: gray\n    addresses: []\n",
      "tags:\n  - name: gray\n    addresses: [10.0.0.300]\n",
      "tags:\n  - name: gray\n    addresses: [10.0.0.1:70000]\n",
      "tags:\n  - name: gray\n    addresses: [10.0.0.1:x]\n",
      "tags:\n  - name: gray\n    addresses: [\"fe80::1\"]\n",             // IPv6 without brackets
      "tags:\n  - name: gray\n    addresses: [\"host name\"]\n",
      "tags:\n  - name: gray\n    addresses: [[10.0.0.1]]\n",
      "tags:\n  - name: gray\n    match:\n      - key: env\n        value: {exact: gray}\n",
      "tags:\n  - name: gray\n    addresses: [10.0.0.1]\n  - name: gray\n    addresses: [10.0.0.2]\n",
      "tags:\n  - name: gray\n    adresses: [10.0.0.1]\n",               // a typo is unknown, not ignored
      "forse: true\ntags:\n  - name: gray\n    addresses: [10.0.0.1]\n",
      "force: yes please\ntags:\n  - name: gray\n    addresses: [10.0.0.1]\n",
      "force: 1\ntags:\n  - name: gray\n    addresses: [10.0.0.1]\n",
      "priority: high\ntags:\n  - name: gray\n    addresses: [10.0.0.1]\n",
      "scope: everywhere\ntags:\n  - name: gray\n    addresses: [10.0.0.1]\n",
      "configVersion: 3\ntags:\n  - name: gray\n    addresses: [10.0.0.1]\n",
      "force: true\nforce: false\ntags:\n  - name: gray\n    addresses: [10.0.0.1]\n",
      "tags:\n  - name: gray\n    addresses: [10.0.0.1]\n---\ntags:\n  - name: b\n    addresses: [10.0.0.2]\n",
      "key: [a, b]\ntags:\n  - name: gray\n    addresses: [10.0.0.1]\n",
  })
  void aMalformedTagRuleIsRejectedWhole(String text) {
    RuleException e = assertThrows(RuleException.class, () -> RuleParser.parseTagRule(text));
    assertFalse(e.getMessage().isBlank());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "conditions: []\n",
      "conditions: method = a => host = b\n",
      "conditions:\n  - \"\"\n",
      "conditions:\n  - {from: {match: a}, to: []}\n",
      "configVersion: v3.1\nconditions:\n  - method = a => host = b\n",
      "scope: provider\nconditions:\n  - method = a => host = b\n",
  })
  void aMalformedConditionRuleIsRejectedWhole(String text) {
    assertThrows(RuleException.class, () -> RuleParser.parseConditionRule(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "configs: []\n",
      "configs:\n  - side: provider\n",                                          // no parameters
      "configs:\n  - side: server\n    parameters: {weight: 1}\n",
      "configs:\n  - parameters: {weight: [1, 2]}\n",
      "configs:\n  - parameters: {}\n",
      "configs:\n  - addresses: 10.0.0.1\n    parameters: {weight: 1}\n",
      "configs:\n  - addresses: [10.0.0.999]\n    parameters: {weight: 1}\n",
      "configs:\n  - match: {address: {wildcard: x}}\n    parameters: {weight: 1}\n",
      "configs:\n  - paramters: {weight: 1}\n",
      "configs:\n  - parameters: {weight: -1}\n",                                // values Triple applies are checked
      "configs:\n  - parameters: {weight: heavy}\n",
      "configs:\n  - parameters: {timeout: 0}\n",
      "configs:\n  - parameters: {timeout: 1.5}\n",
      "configs:\n  - parameters: {retries: 1001}\n",
      "configs:\n  - parameters: {disabled: maybe}\n",
      "configs:\n  - parameters: {timeout: 99999999999}\n",
  })
  void aMalformedDynamicConfigurationIsRejectedWhole(String text) {
    assertThrows(RuleException.class, () -> RuleParser.parseOverrideRule(text));
  }

  @Test
  void anOversizedRuleIsRejectedBeforeItIsRead() {
    String text = TAG_RULE + "#" + "x".repeat(RuleParser.MAX_RULE_CHARS);
    RuleException e = assertThrows(RuleException.class, () -> RuleParser.parseTagRule(text));
    assertTrue(e.getMessage().contains("over the limit"), e.getMessage());
  }

  /** Mangled rules (bytes cut, swapped, repeated) either parse or are refused: nothing else escapes. */
  @Test
  void mangledRulesAreParsedOrRefusedNeverThrownThrough() {
    Random random = new Random(40);
    String[] rules = {TAG_RULE, CONDITION_RULE, OVERRIDE_RULE};
    String alphabet = ":-[]{}\"' \n\t#&*!|>%@`,?=.0123456789abcxyz";
    int refused = 0;
    for (int i = 0; i < 3_000; i++) {
      StringBuilder text = new StringBuilder(rules[i % 3]);
      for (int edits = 1 + random.nextInt(4); edits > 0; edits--) {
        int at = random.nextInt(text.length());
        switch (random.nextInt(3)) {
          case 0 -> text.deleteCharAt(at);
          case 1 -> text.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
          default -> text.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      try {
        switch (i % 3) {
          case 0 -> RuleParser.parseTagRule(text.toString());
          case 1 -> RuleParser.parseConditionRule(text.toString());
          default -> RuleParser.parseOverrideRule(text.toString());
        }
      } catch (RuleException expected) {
        refused++;
      } catch (RuntimeException e) {
        fail("Mangled rule threw " + e + ":\n" + text, e);
      }
    }
    assertTrue(refused > 300, "only " + refused + " of 3000 mangled rules refused");
  }
}
