package io.triplerpc.spring.boot;

import io.triplerpc.TripleServer;

/**
 * Adjusts the server's builder after the {@code triple.server.*} properties and the service beans are
 * applied, before it is built: interceptors, an access policy, services added by hand. Every bean of
 * this type is applied, in {@link org.springframework.core.annotation.Order} order.
 */
@FunctionalInterface
public interface TripleServerCustomizer {

  /** Called once, on the thread that creates the server bean. */
  void customize(TripleServer.Builder builder);
}
