package io.triplerpc.registry;

/**
 * Told what a consumer's discovery sees, for metrics: how many instances each service it calls has,
 * and how long the registry's pushes take to reach its calls. Set with
 * {@link Discovery.Builder#observer}; {@code triple-micrometer}'s {@code DiscoveryMetrics} is one.
 * Every method does nothing by default.
 *
 * <p>Called on discovery's own threads (the registry's, as it delivers a push, and the directory's
 * scheduler), never on a caller's, and never with a lock held that calls take. Reports may come from
 * several threads at once: implementations must be thread-safe, and should return quickly, as the
 * registry's next delivery to the consumer waits for them. An observer that throws is logged and
 * otherwise ignored.
 */
public interface DiscoveryObserver {

  /**
   * The instances calls to {@code service} are spread over are {@code instances} now: those of the
   * applications serving it whose metadata lists the export called, {@code version} and {@code group}
   * (as called: empty for none, {@code "*"} for any). Instances ejected by outlier detection or failing
   * lately are counted; instances whose revision's metadata has not arrived are not. Reported soon
   * after a client first names the export (0 if it knows no instance yet), then on every change of the
   * count; a client's reports of one export come one at a time, the latest last. Each client built with
   * the discovery has directories of its own, and reports for them.
   */
  default void instancesChanged(String service, String version, String group, int instances) {}

  /**
   * A push of {@code application}'s instances from the registry is in use: {@code lagNanos} passed
   * between the consumer receiving it (the registry client handing it over) and calls being spread over
   * the list it made. That includes the wait for the end of a coalescing window and, for instances of a
   * revision new to the consumer, fetching that revision's metadata (or giving up on it after the
   * quick attempts). Reported once per push: each list (the first, and after a reconnection) and each
   * batch of changes; not for an empty list that empty protection ignores. Timed on the consumer's
   * clock only: no registry server's clock is compared with it.
   */
  default void pushApplied(String application, long lagNanos) {}
}
