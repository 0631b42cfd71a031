package io.triplerpc.internal.client;

import io.triplerpc.HedgingPolicy;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.RetryPolicy;
import java.util.Map;

/**
 * What a client applies to the calls of the methods one name covers: the parts of gRPC's
 * {@code MethodConfig} that Triple honours. A call takes the one config of its most specific name and
 * nothing from the others, as in gRPC.
 *
 * @param retryPolicy the retry policy, or null
 * @param hedgingPolicy the hedging policy, or null; never set with a retry policy
 * @param timeoutNanos the deadline of calls that bring none or a later one; 0 for none
 */
record MethodConfig(RetryPolicy retryPolicy, HedgingPolicy hedgingPolicy, long timeoutNanos) {

  static final MethodConfig EMPTY = new MethodConfig(null, null, 0);

  MethodConfig {
    if (retryPolicy != null && hedgingPolicy != null) {
      throw new IllegalArgumentException("A method config has a retry or a hedging policy, not both");
    }
  }

  /**
   * The config of {@code method} in {@code configs} (keyed {@code pkg.Service/Method}, {@code pkg.Service}
   * and "" for every method): its own, else its service's, else every method's; null for none.
   */
  static MethodConfig find(Map<String, MethodConfig> configs, MethodDescriptor<?, ?> method) {
    MethodConfig config = configs.get(method.fullMethodName());
    if (config == null) {
      config = configs.get(method.serviceName());
    }
    return config != null ? config : configs.get("");
  }

  /** This config with {@code policy} in place of its retry or hedging policy. */
  MethodConfig withRetryPolicy(RetryPolicy policy) {
    return new MethodConfig(policy, null, timeoutNanos);
  }

  /** This config with {@code policy} in place of its retry or hedging policy. */
  MethodConfig withHedgingPolicy(HedgingPolicy policy) {
    return new MethodConfig(null, policy, timeoutNanos);
  }
}
