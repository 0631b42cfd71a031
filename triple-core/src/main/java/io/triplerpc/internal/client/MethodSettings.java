package io.triplerpc.internal.client;

import java.util.Map;

/**
 * A client's method configs and the retry state they share, as its builder resolved them from the service
 * config and the policies set in code.
 *
 * @param configs by full method name, by service name, and "" for every method
 * @param throttle the client's retry throttle, or null for none
 * @param perCallBufferBytes request bytes one call keeps for replay
 * @param perClientBufferBytes request bytes all calls together keep
 */
record MethodSettings(Map<String, MethodConfig> configs, Throttle throttle, long perCallBufferBytes,
    long perClientBufferBytes) {

  /** No method config, no throttle, and the retry buffer's default limits (as grpc-java's). */
  static final MethodSettings NONE = new MethodSettings(Map.of(), null, 1L << 20, 16L << 20);

  MethodSettings {
    configs = Map.copyOf(configs);
  }

  /** Whether some calls get a deadline from their method config. */
  boolean timeouts() {
    return configs.values().stream().anyMatch(config -> config.timeoutNanos() > 0);
  }
}
