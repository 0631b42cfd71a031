package io.triplerpc.spi;

import java.net.URI;

/**
 * Turns a client target with a scheme, such as {@code registry://127.0.0.1:7070} or
 * {@code zookeeper://zk1:2181}, into a {@link ClusterFactory}. Found with
 * {@link java.util.ServiceLoader}; the first resolver that claims the scheme wins.
 */
public interface TargetResolver {

  /** Whether this resolver understands {@code scheme} (lower case). */
  boolean supports(String scheme);

  /**
   * The cluster factory of {@code target}.
   *
   * @throws IllegalArgumentException if the target is malformed
   */
  ClusterFactory resolve(URI target);
}
