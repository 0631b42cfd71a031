package io.triplerpc.registry.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConditionCompilerTest {

  /** A call of {@code method} with {@code attachments}, from a consumer with {@code consumer}'s values. */
  record Call(String method, Map<String, String> attachments, Map<String, String> consumer) implements Condition.Call {

    @Override
    public String attachment(String key) {
      return attachments.get(key);
    }

    @Override
    public String consumer(String key) {
      return consumer.get(key);
    }
  }

  record Instance(Map<String, String> values) implements Condition.Instance {

    @Override
    public String provider(String key) {
      return values.get(key);
    }
  }

  private static final Map<String, String> CONSUMER =
      Map.of("host", "10.1.0.7", "application", "shop-web", "interface", "org.example.Greeter");

  private static Call call(String method) {
    return new Call(method, Map.of(), CONSUMER);
  }

  private static Call call(String method, Map<String, String> attachments) {
    return new Call(method, attachments, CONSUMER);
  }

  private static Instance instance(String host, int port, String application) {
    return new Instance(Map.of("host", host, "port", String.valueOf(port), "address", host + ":" + port,
        "protocol", "tri", "application", application, "version", "1.0", "group", "", "serialization", "hessian2"));
  }

  private static Condition compile(String text) throws RuleException {
    return ConditionCompiler.compile(text);
  }

  @Test
  void methodMatchesExactlyByListOrByGlob() throws RuleException {
    Condition c = compile("method = sayHello, get* => host = 10.0.0.5");
    assertTrue(c.matchesWhen(call("sayHello")));
    assertTrue(c.matchesWhen(call("getUser")));
    assertFalse(c.matchesWhen(call("sayBye")));
    assertFalse(c.readsCallValues());
    assertTrue(compile("methods=*Hello => host=1.2.3.4").matchesWhen(call("sayHello")));
    assertTrue(compile("method=say*o => host=1.2.3.4").matchesWhen(call("sayHello")));
    assertFalse(compile("method=say*o => host=1.2.3.4").matchesWhen(call("sayHell")));
  }

  @Test
  void mismatchWinsOverMatch() throws RuleException {
    Condition c = compile("method = get*, put* & method != getSecret => host = 10.0.0.5");
    assertTrue(c.matchesWhen(call("getUser")));
    assertFalse(c.matchesWhen(call("getSecret")));
    assertFalse(c.matchesWhen(call("delete")));
    Condition only = compile("method != getSecret => host = 10.0.0.5");
    assertTrue(only.matchesWhen(call("getUser")));
    assertFalse(only.matchesWhen(call("getSecret")));
  }

  @Test
  void attachmentsAreReadFromTheCallsHeadersInLowerCase() throws RuleException {
    Condition c = compile("attachments[Region] = east* => host = 10.0.0.5");
    assertTrue(c.readsCallValues());
    assertTrue(c.matchesWhen(call("m", Map.of("region", "east-1"))));
    assertFalse(c.matchesWhen(call("m", Map.of("region", "west"))));
    assertFalse(c.matchesWhen(call("m")), "a call without the attachment is not matched, even by !=");
    assertFalse(compile("attachments[region] != west => host=1.2.3.4").matchesWhen(call("m")));
  }

  @Test
  void consumerValuesAreTheConsumersOwn() throws RuleException {
    assertTrue(compile("host = 10.1.0.* => host = 10.0.0.5").matchesWhen(call("m")));
    assertFalse(compile("host = 10.2.0.* => host = 10.0.0.5").matchesWhen(call("m")));
    assertTrue(compile("application = shop-web => host = 10.0.0.5").matchesWhen(call("m")));
    assertTrue(compile("consumer.application = shop-web => provider.host = 10.0.0.5").matchesWhen(call("m")));
    assertFalse(compile("version = 2.0 => host = 10.0.0.5").matchesWhen(call("m")), "the consumer has no version");
  }

  @Test
  void emptyOrTrueWhenMatchesEveryCallAndAConditionWithoutArrowIsAllThen() throws RuleException {
    for (String text : new String[] {"=> host = 10.0.0.5", "true => host = 10.0.0.5", "host = 10.0.0.5"}) {
      Condition c = compile(text);
      assertTrue(c.matchesWhen(call("anything")), text);
      assertTrue(c.matchesThen(instance("10.0.0.5", 1, "a"), call("m")), text);
      assertFalse(c.matchesThen(instance("10.0.0.6", 1, "a"), call("m")), text);
    }
  }

  @Test
  void emptyOrFalseThenBlocks() throws RuleException {
    for (String text : new String[] {"method = secret =>", "method = secret => false"}) {
      Condition c = compile(text);
      assertTrue(c.blocks(), text);
      assertFalse(c.matchesThen(instance("10.0.0.5", 1, "a"), call("m")), text);
    }
  }

  @Test
  void thenMatchesEachProviderValue() throws RuleException {
    Instance a = instance("10.0.0.5", 20880, "shop");
    Instance b = instance("10.0.1.9", 50051, "shop-canary");
    Call consumer = call("m");
    assertTrue(compile("=> host = 10.0.0.*").matchesThen(a, consumer));
    assertFalse(compile("=> host = 10.0.0.*").matchesThen(b, consumer));
    assertTrue(compile("=> port = 50051").matchesThen(b, consumer));
    assertTrue(compile("=> address = 10.0.0.5:20880").matchesThen(a, consumer));
    assertFalse(compile("=> address = 10.0.0.5:20881").matchesThen(a, consumer));
    assertTrue(compile("=> protocol = tri").matchesThen(a, consumer));
    assertTrue(compile("=> application = shop-*").matchesThen(b, consumer));
    assertFalse(compile("=> application = shop-*").matchesThen(a, consumer));
    assertTrue(compile("=> version = 1.0 & serialization = hessian2").matchesThen(a, consumer));
    assertFalse(compile("=> version = 1.0 & serialization = protobuf").matchesThen(a, consumer));
    assertTrue(compile("=> host != 10.0.0.5, 10.0.0.6").matchesThen(b, consumer));
    assertFalse(compile("=> host != 10.0.0.5, 10.0.0.6").matchesThen(a, consumer));
    assertFalse(compile("=> group = x").matchesThen(a, consumer));
  }

  @Test
  void rangesCompareIntegersAsDubboDoes() throws RuleException {
    Call consumer = call("m");
    assertTrue(compile("=> port = 20000~30000").matchesThen(instance("h", 20880, "a"), consumer));
    assertFalse(compile("=> port = 20000~30000").matchesThen(instance("h", 50051, "a"), consumer));
    assertTrue(compile("=> port = ~30000").matchesThen(instance("h", 20880, "a"), consumer));
    // A value that is not all digits counts as 0.
    assertTrue(compile("=> application = ~5").matchesThen(instance("h", 1, "shop"), consumer));
    assertTrue(compile("attachments[n] = 1~9 => host=h").matchesWhen(call("m", Map.of("n", "7"))));
    assertFalse(compile("attachments[n] = 1~9 => host=h").matchesWhen(call("m", Map.of("n", "10"))));
    assertFalse(compile("attachments[n] = 1~9 => host=h").matchesWhen(call("m", Map.of("n", "99999999999"))),
        "too large: no match in a when");
    assertTrue(compile("=> port = 1~9").matchesThen(new Instance(Map.of("port", "99999999999")), consumer),
        "too large: a match in a then");
  }

  @Test
  void referencesReadTheConsumersValues() throws RuleException {
    Condition sameHost = compile("=> host = $host");
    assertTrue(sameHost.matchesThen(instance("10.1.0.7", 1, "a"), call("m")));
    assertFalse(sameHost.matchesThen(instance("10.1.0.8", 1, "a"), call("m")));
    assertTrue(compile("=> application != $application").matchesThen(instance("h", 1, "shop"), call("m")));
    assertFalse(compile("=> application = $version").matchesThen(instance("h", 1, "shop"), call("m")),
        "a consumer value it lacks matches only an empty value");
  }

  @Test
  void aRuleCompilesEachCondition() throws RuleException {
    CompiledConditionRule rule = ConditionCompiler.parse(RuleParserTest.CONDITION_RULE.replace("region", "group"));
    assertEquals(2, rule.conditions().size());
    assertTrue(rule.header().force());
    assertEquals("method = sayHello => host != 10.0.0.5", rule.conditions().get(0).toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "method = a => region = east",          // a key no instance has
      "zone = a => host = 1.2.3.4",            // a key the consumer has not
      "arguments[0] = 1 => host = 1.2.3.4",    // arguments: refused whole
      "argumentsx = 1 => host = 1.2.3.4",
      "attachments[] = 1 => host = 1.2.3.4",
      "attachments[a.b] = 1 => host = 1.2.3.4",
      "attachments[a]x = 1 => host = 1.2.3.4",
      "attachments = 1 => host = 1.2.3.4",
      "method = a => attachments[x] = 1",
      "=> method = a",
      "method => host = 1.2.3.4",              // a key without a value
      "method = a & host => host = 1.2.3.4",
      "method = a host = b => host = 1.2.3.4", // a second key without '&'
      "= a => host = 1.2.3.4",                 // a value without a key
      "method = a, => host = 1.2.3.4",          // a separator with nothing after it
      "method =, a => host = 1.2.3.4",
      "method == a => host = 1.2.3.4",
      "method &= a => host = 1.2.3.4",
      "method = a && host = b => host = 1.2.3.4",
      "method = a => host = b => host = c",
      "=> port = 1~",
      "=> port = ~",
      "=> port = 9~1",
      "=> port = a~9",
      "=> port = 1~2~3",
      "=> port = 1~99999999999",
      "method = $host => host = 1.2.3.4",
      "=> host = $port",
      "=> host = $",
  })
  void malformedConditionsAreRefusedWithTheirPart(String condition) {
    RuleException e = assertThrows(RuleException.class, () -> compile(condition), condition);
    assertTrue(e.getMessage().startsWith("when") || e.getMessage().startsWith("then")
        || e.getMessage().startsWith("a second"), e.getMessage());
  }

  @Test
  void aRuleWithOneBadConditionIsRefusedWhole() {
    String text = """
        conditions:
          - method = a => host = 1.2.3.4
          - method = b => zone = x
        """;
    RuleException e = assertThrows(RuleException.class, () -> ConditionCompiler.parse(text));
    assertEquals("conditions[1] 'method = b => zone = x': then: unknown key zone (expected one of "
        + Condition.Field.PROVIDER_KEYS + ")", e.getMessage());
  }

  @Test
  void mangledConditionsCompileOrAreRefusedNeverThrownThrough() {
    Random random = new Random(41);
    String[] seeds = {
        "method = get*, put* & method != getSecret => host = 10.0.0.* & port = 20000~30000",
        "application = shop-web & attachments[region] = east => address != 10.0.0.5:20880, $host",
        "host = 10.1.0.* => application = shop & version = 1.0 & serialization = hessian2",
    };
    String alphabet = "=>&!,~$*[]. \t:-abchostmethod0123456789";
    int compiled = 0;
    int refused = 0;
    for (int i = 0; i < 4_000; i++) {
      StringBuilder text = new StringBuilder(seeds[i % seeds.length]);
      for (int edits = 1 + random.nextInt(4); edits > 0 && text.length() > 0; edits--) {
        int at = random.nextInt(text.length());
        switch (random.nextInt(3)) {
          case 0 -> text.deleteCharAt(at);
          case 1 -> text.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
          default -> text.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      try {
        Condition c = compile(text.toString());
        // A compiled condition matches without throwing whatever it meets.
        c.matchesWhen(call("getUser", Map.of("region", "east")));
        c.matchesThen(instance("10.0.0.5", 20880, "shop"), call("m"));
        compiled++;
      } catch (RuleException expected) {
        refused++;
      } catch (RuntimeException e) {
        fail("Mangled condition threw " + e + ": " + text, e);
      }
    }
    assertTrue(compiled > 400 && refused > 400, compiled + " compiled, " + refused + " refused");
  }
}
