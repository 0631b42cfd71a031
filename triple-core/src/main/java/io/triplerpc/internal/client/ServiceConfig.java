package io.triplerpc.internal.client;

import java.util.Map;

/**
 * What a client honours of a gRPC service config ({@link ServiceConfigParser} reads it).
 *
 * @param methodConfigs by {@code pkg.Service/Method}, by {@code pkg.Service}, and "" for every method
 * @param throttling the retry throttling, or null for none
 */
record ServiceConfig(Map<String, MethodConfig> methodConfigs, Throttling throttling) {

  static final ServiceConfig EMPTY = new ServiceConfig(Map.of(), null);

  ServiceConfig {
    methodConfigs = Map.copyOf(methodConfigs);
  }

  /** gRPC's {@code retryThrottling}: {@code maxTokens} in [1, 1000], {@code tokenRatio} positive. */
  record Throttling(int maxTokens, double tokenRatio) {

    Throttle newThrottle() {
      return new Throttle(maxTokens, tokenRatio);
    }
  }
}
