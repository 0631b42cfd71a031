package io.triplerpc.spring.boot;

import io.triplerpc.TripleClient;

/**
 * Adjusts the builder of each client made for {@link TripleReference}s after the {@code triple.client.*}
 * properties are applied: interceptors, credentials, retry policies, TLS for some targets only. Every
 * bean of this type is applied, in {@link org.springframework.core.annotation.Order} order.
 */
@FunctionalInterface
public interface TripleClientCustomizer {

  /**
   * Called once per client.
   *
   * @param target the reference's address with placeholders resolved, or the empty string for the
   *     client that finds its servers through the application's registry
   */
  void customize(String target, TripleClient.Builder builder);
}
