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
record MethodSettings(Map<String, MethodConfig> configs, RetryingCalls.Throttle throttle, long perCallBufferBytes,
    long perClientBufferBytes) {

  MethodSettings {
    configs = Map.copyOf(configs);
  }

  /** Whether some calls are retried or hedged (and so need the retry machinery and a scheduler). */
  boolean retries() {
    return configs.values().stream().anyMatch(MethodConfig::retriesOrHedges);
  }

  /** Whether some calls get a deadline from their method config. */
  boolean timeouts() {
    return configs.values().stream().anyMatch(config -> config.timeoutNanos() > 0);
  }
}
