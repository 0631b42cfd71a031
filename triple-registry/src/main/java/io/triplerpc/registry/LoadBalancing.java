package io.triplerpc.registry;

/** How a consumer picks one of a service's instances for each call. */
public enum LoadBalancing {
  /** Each instance in turn, ignoring weights. */
  ROUND_ROBIN,
  /**
   * Every call to one instance while it serves (gRPC's {@code pick_first}): the first in the registry's
   * order (a DNS answer's, say) that can take a call; when it fails, leaves or is ejected, the next
   * that can, which calls then stay with. Weights are not used.
   */
  PICK_FIRST,
  /** At random, in proportion to the instances' weights (the default). */
  WEIGHTED_RANDOM,
  /**
   * The instance with the fewest calls in flight from this consumer. Looks at every instance per
   * call: for services with thousands of instances prefer {@link #POWER_OF_TWO_CHOICES}.
   */
  LEAST_ACTIVE,
  /** Two instances at random, then the one with fewer calls in flight: near least-active, in O(1). */
  POWER_OF_TWO_CHOICES,
  /**
   * Two instances at random, then the one with the lower cost = peak-EWMA latency × (calls in flight
   * + 1), as Finagle's and Linkerd's peak-EWMA balancers do: latency-aware, in O(1). For instances
   * that answer at different speeds (mixed hardware, noisy neighbours, one in a long GC).
   *
   * <p>Each instance's latency estimate takes a slower call at once (the peak) and follows faster
   * ones as time passes: {@code ewma = ewma × w + rtt × (1 - w)}, {@code w = exp(-elapsed / decay)},
   * elapsed being the time since its last update and decay {@link Discovery.Builder#peakEwmaDecay}
   * (10 s by default). While an instance is not called its estimate decays toward zero, so one that was
   * slow is tried again and, if it has recovered, gets its share back. An instance not measured yet
   * counts 30 ms (as linkerd2-proxy): tried, not flooded.
   *
   * <p>Only unary calls are measured, from the start of the attempt to its end (the first call on a
   * new connection includes the connect): a stream lasts as long as the conversation, which says
   * nothing of the instance's speed. A call that fails or is cancelled counts only if it took longer
   * than the estimate, so an instance failing fast never looks fast. Instances of weight 0 are picked
   * only when no other is left, as with {@link #WEIGHTED_RANDOM}; other weights are not used.
   */
  PEAK_EWMA,
  /**
   * Calls with the same key go to the same instance, on every consumer, while the instances stay the
   * same; when one joins or leaves, only the keys next to it on the ring move. The ring is Dubbo's
   * {@code consistenthash}: {@link Discovery.Builder#hashNodes} points per instance (160 by default),
   * from the MD5 of its {@code host:port}, so Triple and Dubbo consumers of one provider set agree.
   *
   * <p>The key: {@link io.triplerpc.CallOptions#withHashKey}, or for proxies of plain Java interfaces the
   * arguments {@link io.triplerpc.CallOptions#withHashArguments} names (Dubbo's {@code hash.arguments}),
   * or the request header {@link Discovery.Builder#hashKeyHeader} names (gRPC's {@code ring_hash} with
   * a request hash header). An instance that cannot take the call (ejected, failing lately, already tried
   * by this call) passes it on to the next one round the ring. A call without a key goes to any instance.
   * Weights are not used, as in Dubbo.
   */
  CONSISTENT_HASH
}
