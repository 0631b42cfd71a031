package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.HedgingPolicy;
import io.triplerpc.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a service config and the policies set in code combine into a client's method settings. */
class TripleClientBuilderTest {

  private static final String CONFIG = """
      {"methodConfig": [
        {"name": [{"service": "shop.Orders"}], "timeout": "1s",
         "hedgingPolicy": {"maxAttempts": 2}},
        {"name": [{"service": "shop.Carts"}],
         "retryPolicy": {"maxAttempts": 2, "initialBackoff": "1s", "maxBackoff": "1s", "backoffMultiplier": 1,
                         "retryableStatusCodes": ["UNAVAILABLE"]}}
      ],
      "retryThrottling": {"maxTokens": 4, "tokenRatio": 1}}
      """;

  @Test
  void aPolicySetInCodeReplacesTheServiceConfigsForItsNameAndKeepsTheTimeout() {
    RetryPolicy retry = RetryPolicy.builder().build();
    HedgingPolicy hedging = HedgingPolicy.builder().build();
    Map<String, MethodConfig> configs = new TripleClientBuilder().serviceConfig(CONFIG)
        .retryPolicy(retry, "shop.Orders").hedgingPolicy(hedging, "shop.Search/find").methodSettings().configs();
    assertEquals(new MethodConfig(retry, null, Duration.ofSeconds(1).toNanos()), configs.get("shop.Orders"));
    assertEquals(new MethodConfig(null, hedging, 0), configs.get("shop.Search/find"));
    assertEquals(2, configs.get("shop.Carts").retryPolicy().maxAttempts(), "untouched");
  }

  @Test
  void aServiceConfigReplacesTheOneBeforeAndTheMapFormIsTheSame() {
    TripleClientBuilder builder = new TripleClientBuilder().serviceConfig(CONFIG)
        .serviceConfig(Map.of("methodConfig", List.of(Map.of(
            "name", List.of(Map.of("service", "shop.Search")), "timeout", "2s"))));
    MethodSettings settings = builder.methodSettings();
    assertEquals(Set.of("shop.Search"), settings.configs().keySet());
    assertNull(settings.throttle());
    assertTrue(settings.timeouts());
  }

  @Test
  void throttlingSetInCodeWinsOverTheServiceConfigs() {
    Throttle fromConfig = new TripleClientBuilder().serviceConfig(CONFIG).methodSettings().throttle();
    assertTrue(fromConfig.failedMayRetry(), "3 of 4 tokens left");
    assertFalse(fromConfig.failedMayRetry(), "2 of 4: not more than half");

    Throttle fromCode = new TripleClientBuilder().retryThrottling(10, 1).serviceConfig(CONFIG)
        .methodSettings().throttle();
    for (int i = 0; i < 4; i++) {
      assertTrue(fromCode.failedMayRetry(), "10 tokens, whatever the order of the calls");
    }
  }

  @Test
  void withoutAnyConfigNothingIsWrapped() {
    MethodSettings settings = new TripleClientBuilder().methodSettings();
    assertEquals(Map.of(), settings.configs());
    assertFalse(settings.timeouts());
  }
}
