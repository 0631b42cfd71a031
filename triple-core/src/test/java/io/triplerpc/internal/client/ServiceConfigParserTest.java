package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import io.triplerpc.serialization.Serializations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * gRPC's JSON service config read as gRPC reads it: every honoured field, the fields Triple ignores, the
 * precedence of names (method, then service, then the default, one whole config per call), every rule a
 * config can break with the path of the offending value in the message, and the JSON text and its parsed
 * map giving the same config.
 */
class ServiceConfigParserTest {

  private static final String FULL = """
      {
        "loadBalancingConfig": [{"round_robin": {}}],
        "methodConfig": [
          {
            "name": [{"service": "shop.Orders"}, {"service": "shop.Carts", "method": "add"}],
            "timeout": "2.5s",
            "retryPolicy": {
              "maxAttempts": 4,
              "initialBackoff": "0.1s",
              "maxBackoff": "1s",
              "backoffMultiplier": 1.5,
              "retryableStatusCodes": ["UNAVAILABLE", 4]
            }
          },
          {
            "name": [{"service": "shop.Search", "method": "find"}],
            "hedgingPolicy": {
              "maxAttempts": 3,
              "hedgingDelay": "0.05s",
              "nonFatalStatusCodes": ["UNAVAILABLE", "INTERNAL"]
            }
          },
          {
            "name": [{}],
            "timeout": "30s"
          }
        ],
        "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
      }
      """;

  private static MethodDescriptor<StringValue, StringValue> method(String service, String name) {
    return MethodDescriptor.of(service, name, MethodType.UNARY, Serializations.codecFor(StringValue.class),
        Serializations.codecFor(StringValue.class), false);
  }

  /** A config of one method config for {@code shop.Orders}, with {@code fields} in it. */
  private static String orders(String fields) {
    return "{\"methodConfig\": [{\"name\": [{\"service\": \"shop.Orders\"}], " + fields + "}]}";
  }

  @Test
  void everyHonouredFieldIsRead() {
    ServiceConfig config = ServiceConfigParser.parse(FULL);
    assertEquals(Set.of("shop.Orders", "shop.Carts/add", "shop.Search/find", ""), config.methodConfigs().keySet());

    MethodConfig orders = config.methodConfigs().get("shop.Orders");
    assertSame(orders, config.methodConfigs().get("shop.Carts/add"), "the names of one method config share it");
    RetryPolicy retry = orders.retryPolicy();
    assertEquals(4, retry.maxAttempts());
    assertEquals(Duration.ofMillis(100), retry.initialBackoff());
    assertEquals(Duration.ofSeconds(1), retry.maxBackoff());
    assertEquals(1.5, retry.backoffMultiplier());
    assertEquals(Set.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED), retry.retryableStatusCodes(),
        "a status code by name or by number");
    assertNull(orders.hedgingPolicy());
    assertEquals(Duration.ofMillis(2500).toNanos(), orders.timeoutNanos());

    MethodConfig search = config.methodConfigs().get("shop.Search/find");
    HedgingPolicy hedging = search.hedgingPolicy();
    assertEquals(3, hedging.maxAttempts());
    assertEquals(Duration.ofMillis(50), hedging.hedgingDelay());
    assertEquals(Set.of(Status.Code.UNAVAILABLE, Status.Code.INTERNAL), hedging.nonFatalStatusCodes());
    assertNull(search.retryPolicy());
    assertEquals(0, search.timeoutNanos(), "no timeout");

    assertEquals(new MethodConfig(null, null, Duration.ofSeconds(30).toNanos()), config.methodConfigs().get(""));
    assertEquals(new ServiceConfig.Throttling(10, 0.1), config.throttling());
  }

  @Test
  void theMostSpecificNameWinsAndItsConfigIsTakenWhole() {
    ServiceConfig config = ServiceConfigParser.parse("""
        {"methodConfig": [
          {"name": [{"service": ""}],
           "retryPolicy": {"maxAttempts": 2, "initialBackoff": "1s", "maxBackoff": "1s", "backoffMultiplier": 1,
                           "retryableStatusCodes": ["UNAVAILABLE"]}},
          {"name": [{"service": "shop.Orders", "method": null}], "timeout": "1s"},
          {"name": [{"service": "shop.Orders", "method": "place"}],
           "hedgingPolicy": {"maxAttempts": 2}}
        ]}
        """);
    Map<String, MethodConfig> configs = config.methodConfigs();
    assertEquals(2, MethodConfig.find(configs, method("shop.Orders", "place")).hedgingPolicy().maxAttempts(),
        "the method's own config");
    MethodConfig cancel = MethodConfig.find(configs, method("shop.Orders", "cancel"));
    assertEquals(Duration.ofSeconds(1).toNanos(), cancel.timeoutNanos(), "its service's");
    assertNull(cancel.retryPolicy(), "nothing of the default's: the service's config is taken whole, as in gRPC");
    assertEquals(2, MethodConfig.find(configs, method("shop.Carts", "add")).retryPolicy().maxAttempts(),
        "the default");
    assertNull(MethodConfig.find(Map.of("shop.Orders", MethodConfig.EMPTY), method("shop.Carts", "add")),
        "no config without a default");
  }

  @Test
  void aNameWithAnEmptyOrNullMethodIsItsServiceAndAnEmptyNameTheDefault() {
    ServiceConfig config = ServiceConfigParser.parse("""
        {"methodConfig": [
          {"name": [{"service": "a.S", "method": ""}, {"service": "b.S", "method": null}, {"service": "c.S"}]},
          {"name": [{"service": null, "method": ""}]}
        ]}
        """);
    assertEquals(Set.of("a.S", "b.S", "c.S", ""), config.methodConfigs().keySet());
  }

  @Test
  void aMethodConfigWithoutNamesAppliesToNothingButIsStillChecked() {
    assertEquals(Map.of(), ServiceConfigParser.parse(
        "{\"methodConfig\": [{\"timeout\": \"1s\"}, {\"name\": [], \"timeout\": \"1s\"}]}").methodConfigs());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ServiceConfigParser.parse("{\"methodConfig\": [{\"timeout\": \"soon\"}]}"));
    assertEquals("methodConfig[0].timeout is not a duration such as \"0.1s\" (Invalid duration string: soon): \"soon\"",
        e.getMessage());
  }

  @Test
  void fieldsTripleHasNoEquivalentForAndUnknownOnesAreIgnored() {
    ServiceConfig config = ServiceConfigParser.parse("""
        {
          "loadBalancingPolicy": "round_robin",
          "loadBalancingConfig": [{"pick_first": {}}],
          "healthCheckConfig": {"serviceName": "shop"},
          "methodConfig": [{
            "name": [{"service": "shop.Orders", "extra": 1}],
            "waitForReady": true,
            "maxRequestMessageBytes": 1024,
            "maxResponseMessageBytes": "2048",
            "somethingNew": {"x": [1, 2]},
            "retryPolicy": {"maxAttempts": 2, "initialBackoff": "1s", "maxBackoff": "1s", "backoffMultiplier": 1,
                            "retryableStatusCodes": ["UNAVAILABLE"], "perAttemptRecvTimeout": "1s"}
          }],
          "retryThrottling": {"maxTokens": 1, "tokenRatio": 1, "later": true}
        }
        """);
    assertEquals(Set.of("shop.Orders"), config.methodConfigs().keySet());
    assertEquals(0, config.methodConfigs().get("shop.Orders").timeoutNanos());
    assertEquals(2, config.methodConfigs().get("shop.Orders").retryPolicy().maxAttempts());
  }

  @Test
  void maxAttemptsAboveFiveCountAsFive() {
    ServiceConfig config = ServiceConfigParser.parse("""
        {"methodConfig": [
          {"name": [{"service": "a.S"}], "retryPolicy": {"maxAttempts": 9, "initialBackoff": "1s", "maxBackoff": "1s",
                                                          "backoffMultiplier": 1, "retryableStatusCodes": [14]}},
          {"name": [{"service": "b.S"}], "hedgingPolicy": {"maxAttempts": 1000}}
        ]}
        """);
    assertEquals(5, config.methodConfigs().get("a.S").retryPolicy().maxAttempts());
    assertEquals(5, config.methodConfigs().get("b.S").hedgingPolicy().maxAttempts());
  }

  @Test
  void durationsAsA6WritesThemAndNumbersAsStringsAreRead() {
    RetryPolicy retry = ServiceConfigParser.parse(orders("""
        "retryPolicy": {"maxAttempts": "3", "initialBackoff": ".1s", "maxBackoff": "2.000000001s",
                        "backoffMultiplier": "2", "retryableStatusCodes": ["UNAVAILABLE"]}
        """)).methodConfigs().get("shop.Orders").retryPolicy();
    assertEquals(3, retry.maxAttempts());
    assertEquals(Duration.ofMillis(100), retry.initialBackoff());
    assertEquals(Duration.ofSeconds(2, 1), retry.maxBackoff());
    assertEquals(2, retry.backoffMultiplier());
  }

  @Test
  void aHedgingPolicyMayLeaveOutItsDelayAndNonFatalCodes() {
    HedgingPolicy hedging = ServiceConfigParser.parse(orders("\"hedgingPolicy\": {\"maxAttempts\": 2}"))
        .methodConfigs().get("shop.Orders").hedgingPolicy();
    assertEquals(Duration.ZERO, hedging.hedgingDelay(), "A6: unset sends every attempt at once");
    assertEquals(Set.of(), hedging.nonFatalStatusCodes());
  }

  @Test
  void anEmptyConfigConfiguresNothing() {
    assertEquals(ServiceConfig.EMPTY, ServiceConfigParser.parse("{}"));
    assertEquals(ServiceConfig.EMPTY, ServiceConfigParser.parse(Map.of()));
    assertEquals(ServiceConfig.EMPTY, ServiceConfigParser.parse("{\"methodConfig\": null, \"retryThrottling\": null}"));
  }

  @Test
  void theMapAndTheStringGiveTheSameConfig() {
    Map<String, Object> map = Map.of(
        "loadBalancingConfig", List.of(Map.of("round_robin", Map.of())),
        "methodConfig", List.of(
            Map.of(
                "name", List.of(Map.of("service", "shop.Orders"), Map.of("service", "shop.Carts", "method", "add")),
                "timeout", "2.5s",
                "retryPolicy", Map.of(
                    "maxAttempts", 4.0,
                    "initialBackoff", "0.1s",
                    "maxBackoff", "1s",
                    "backoffMultiplier", 1.5,
                    "retryableStatusCodes", List.of("UNAVAILABLE", 4.0))),
            Map.of(
                "name", List.of(Map.of("service", "shop.Search", "method", "find")),
                "hedgingPolicy", Map.of(
                    "maxAttempts", 3.0,
                    "hedgingDelay", "0.05s",
                    "nonFatalStatusCodes", List.of("UNAVAILABLE", "INTERNAL"))),
            Map.of("name", List.of(Map.of()), "timeout", "30s")),
        "retryThrottling", Map.of("maxTokens", 10.0, "tokenRatio", 0.1));
    assertEquals(describe(ServiceConfigParser.parse(FULL)), describe(ServiceConfigParser.parse(map)));
  }

  @Test
  void aMapMayHoldIntegersWhereJsonHasDoubles() {
    Map<String, Object> map = Map.of("methodConfig", List.of(Map.of(
        "name", List.of(Map.of("service", "shop.Orders")),
        "hedgingPolicy", Map.of("maxAttempts", 3, "nonFatalStatusCodes", List.of(14)))),
        "retryThrottling", Map.of("maxTokens", 5, "tokenRatio", 1));
    ServiceConfig config = ServiceConfigParser.parse(map);
    assertEquals(3, config.methodConfigs().get("shop.Orders").hedgingPolicy().maxAttempts());
    assertEquals(new ServiceConfig.Throttling(5, 1), config.throttling());
  }

  /** The config as text, its codes sorted, so that two configs compare by what they say. */
  private static String describe(ServiceConfig config) {
    Map<String, String> methods = new TreeMap<>();
    config.methodConfigs().forEach((name, method) -> {
      StringBuilder text = new StringBuilder("timeout=" + method.timeoutNanos());
      RetryPolicy retry = method.retryPolicy();
      if (retry != null) {
        text.append(" retry=").append(retry.maxAttempts()).append(',').append(retry.initialBackoff()).append(',')
            .append(retry.maxBackoff()).append(',').append(retry.backoffMultiplier()).append(',')
            .append(retry.retryableStatusCodes().stream().sorted().toList());
      }
      HedgingPolicy hedging = method.hedgingPolicy();
      if (hedging != null) {
        text.append(" hedging=").append(hedging.maxAttempts()).append(',').append(hedging.hedgingDelay()).append(',')
            .append(hedging.nonFatalStatusCodes().stream().sorted().toList());
      }
      methods.put(name, text.toString());
    });
    return methods + " throttling=" + config.throttling();
  }

  static Stream<Arguments> invalidConfigs() {
    String retry = "\"maxAttempts\": 3, \"initialBackoff\": \"1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2, ";
    return Stream.of(
        // retryPolicy
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("3", "1") + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.maxAttempts must be > 1: 1"),
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("3", "2.5") + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.maxAttempts must be a whole number: 2.5"),
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("\"maxAttempts\": 3, ", "")
                + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.maxAttempts is required"),
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("3", "\"three\"") + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.maxAttempts must be a number: \"three\""),
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("\"initialBackoff\": \"1s\"", "\"initialBackoff\": \"0s\"")
                + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.initialBackoff must be > 0: \"0s\""),
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("\"maxBackoff\": \"1s\"", "\"maxBackoff\": \"-1s\"")
                + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.maxBackoff must be > 0: \"-1s\""),
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("\"maxBackoff\": \"1s\"", "\"maxBackoff\": \"100ms\"")
                + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.maxBackoff is not a duration such as \"0.1s\" (Invalid duration string:"
                + " 100ms): \"100ms\""),
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("\"maxBackoff\": \"1s\"", "\"maxBackoff\": 1")
                + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.maxBackoff must be a string: 1"),
        Arguments.of(orders("\"retryPolicy\": {" + retry.replace("2, ", "0, ") + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0].retryPolicy.backoffMultiplier must be > 0: 0"),
        Arguments.of(orders("\"retryPolicy\": {" + retry + "\"retryableStatusCodes\": []}"),
            "methodConfig[0].retryPolicy.retryableStatusCodes must not be empty"),
        Arguments.of(orders("\"retryPolicy\": {" + retry.substring(0, retry.length() - 2) + "}"),
            "methodConfig[0].retryPolicy.retryableStatusCodes is required"),
        Arguments.of(orders("\"retryPolicy\": {" + retry + "\"retryableStatusCodes\": [\"UNAVAILABLE\", \"BUSY\"]}"),
            "methodConfig[0].retryPolicy.retryableStatusCodes[1] is not a status code name (such as UNAVAILABLE):"
                + " \"BUSY\""),
        Arguments.of(orders("\"retryPolicy\": {" + retry + "\"retryableStatusCodes\": [\"unavailable\"]}"),
            "methodConfig[0].retryPolicy.retryableStatusCodes[0] is not a status code name (such as UNAVAILABLE):"
                + " \"unavailable\""),
        Arguments.of(orders("\"retryPolicy\": {" + retry + "\"retryableStatusCodes\": [17]}"),
            "methodConfig[0].retryPolicy.retryableStatusCodes[0] must be in [0, 16]: 17"),
        Arguments.of(orders("\"retryPolicy\": {" + retry + "\"retryableStatusCodes\": [\"OK\"]}"),
            "methodConfig[0].retryPolicy.retryableStatusCodes[0] must be a failure, not OK: \"OK\""),
        Arguments.of(orders("\"retryPolicy\": {" + retry + "\"retryableStatusCodes\": \"UNAVAILABLE\"}"),
            "methodConfig[0].retryPolicy.retryableStatusCodes must be a list: \"UNAVAILABLE\""),
        Arguments.of(orders("\"retryPolicy\": \"x\""), "methodConfig[0].retryPolicy must be an object: \"x\""),
        // hedgingPolicy
        Arguments.of(orders("\"hedgingPolicy\": {\"maxAttempts\": 1}"),
            "methodConfig[0].hedgingPolicy.maxAttempts must be > 1: 1"),
        Arguments.of(orders("\"hedgingPolicy\": {\"hedgingDelay\": \"1s\"}"),
            "methodConfig[0].hedgingPolicy.maxAttempts is required"),
        Arguments.of(orders("\"hedgingPolicy\": {\"maxAttempts\": 2, \"hedgingDelay\": \"-0.5s\"}"),
            "methodConfig[0].hedgingPolicy.hedgingDelay must not be negative: \"-0.5s\""),
        Arguments.of(orders("\"hedgingPolicy\": {\"maxAttempts\": 2, \"nonFatalStatusCodes\": [\"SOMETIMES\"]}"),
            "methodConfig[0].hedgingPolicy.nonFatalStatusCodes[0] is not a status code name (such as UNAVAILABLE):"
                + " \"SOMETIMES\""),
        Arguments.of(orders("\"hedgingPolicy\": {\"maxAttempts\": 2, \"nonFatalStatusCodes\": [0]}"),
            "methodConfig[0].hedgingPolicy.nonFatalStatusCodes[0] must be a failure, not OK: 0"),
        Arguments.of(orders("\"hedgingPolicy\": {\"maxAttempts\": 2}, \"retryPolicy\": {" + retry
                + "\"retryableStatusCodes\": [14]}"),
            "methodConfig[0] has both a retryPolicy and a hedgingPolicy; a method config has one or neither"),
        // timeout and the ignored fields' types
        Arguments.of(orders("\"timeout\": \"0s\""), "methodConfig[0].timeout must be > 0: \"0s\""),
        Arguments.of(orders("\"timeout\": \"1m\""),
            "methodConfig[0].timeout is not a duration such as \"0.1s\" (Invalid duration string: 1m): \"1m\""),
        Arguments.of(orders("\"waitForReady\": \"yes\""), "methodConfig[0].waitForReady must be true or false: \"yes\""),
        Arguments.of(orders("\"maxRequestMessageBytes\": -1"),
            "methodConfig[0].maxRequestMessageBytes must be in [0, 4294967295]: -1"),
        // names
        Arguments.of("{\"methodConfig\": [{\"name\": [{\"service\": \"a.S\", \"method\": \"m\"}]},"
                + " {\"name\": [{\"service\": \"b.S\"}, {\"service\": \"a.S\", \"method\": \"m\"}]}]}",
            "methodConfig[1].name[1] names a.S/m again, after methodConfig[0].name[0]; a name may have one method"
                + " config"),
        Arguments.of("{\"methodConfig\": [{\"name\": [{\"service\": \"a.S\"}, {\"service\": \"a.S\", \"method\": \"\"}]}]}",
            "methodConfig[0].name[1] names a.S again, after methodConfig[0].name[0]; a name may have one method config"),
        Arguments.of("{\"methodConfig\": [{\"name\": [{}]}, {\"name\": [{\"service\": \"\"}]}]}",
            "methodConfig[1].name[0] names every method (no service) again, after methodConfig[0].name[0]; a name"
                + " may have one method config"),
        Arguments.of("{\"methodConfig\": [{\"name\": [{\"method\": \"m\"}]}]}",
            "methodConfig[0].name[0].method needs a service (a name without one is the default of every method):"
                + " \"m\""),
        Arguments.of("{\"methodConfig\": [{\"name\": [{\"service\": \"a.S/m\"}]}]}",
            "methodConfig[0].name[0].service must not hold '/': \"a.S/m\""),
        Arguments.of("{\"methodConfig\": [{\"name\": {\"service\": \"a.S\"}}]}",
            "methodConfig[0].name must be a list: {service=a.S}"),
        Arguments.of("{\"methodConfig\": {}}", "methodConfig must be a list: {}"),
        Arguments.of("{\"methodConfig\": [\"a.S\"]}", "methodConfig[0] must be an object: \"a.S\""),
        // retryThrottling
        Arguments.of("{\"retryThrottling\": {\"maxTokens\": 0, \"tokenRatio\": 0.1}}",
            "retryThrottling.maxTokens must be in [1, 1000]: 0"),
        Arguments.of("{\"retryThrottling\": {\"maxTokens\": 1001, \"tokenRatio\": 0.1}}",
            "retryThrottling.maxTokens must be in [1, 1000]: 1001"),
        Arguments.of("{\"retryThrottling\": {\"maxTokens\": 10, \"tokenRatio\": 0}}",
            "retryThrottling.tokenRatio must be > 0: 0"),
        Arguments.of("{\"retryThrottling\": {\"maxTokens\": 10}}", "retryThrottling.tokenRatio is required"),
        Arguments.of("{\"retryThrottling\": {\"tokenRatio\": 1}}", "retryThrottling.maxTokens is required"),
        // the ignored top-level fields' types
        Arguments.of("{\"loadBalancingPolicy\": 1}", "loadBalancingPolicy must be a string: 1"));
  }

  @ParameterizedTest
  @MethodSource("invalidConfigs")
  void anInvalidConfigIsRefusedNamingTheOffendingField(String json, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServiceConfigParser.parse(json));
    assertEquals(message, e.getMessage());
  }

  @Test
  void textThatIsNotAJsonObjectIsRefused() {
    for (String json : new String[] {"", "{", "[]", "\"methodConfig\"", "{\"methodConfig\": [}"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServiceConfigParser.parse(json),
          json);
      assertTrue(e.getMessage().startsWith("Service config is not a JSON object: "), e.getMessage());
    }
  }
}
