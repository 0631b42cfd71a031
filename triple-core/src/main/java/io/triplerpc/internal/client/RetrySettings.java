package io.triplerpc.internal.client;

import io.triplerpc.HedgingPolicy;
import io.triplerpc.RetryPolicy;
import java.util.Map;

/**
 * A client's retry configuration, as its builder collected it.
 *
 * @param policies retry policies by full method name, by service name, and "" for every call
 * @param hedging hedging policies, named the same way
 * @param throttle the client's throttle, or null for none
 * @param perCallBufferBytes request bytes one call keeps for replay
 * @param perClientBufferBytes request bytes all calls together keep
 */
record RetrySettings(Map<String, RetryPolicy> policies, Map<String, HedgingPolicy> hedging,
    RetryingCalls.Throttle throttle, long perCallBufferBytes, long perClientBufferBytes) {

  RetrySettings {
    policies = Map.copyOf(policies);
    hedging = Map.copyOf(hedging);
  }
}
