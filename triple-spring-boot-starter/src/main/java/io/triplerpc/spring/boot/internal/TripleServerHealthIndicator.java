package io.triplerpc.spring.boot.internal;

import io.triplerpc.TripleServer;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP while the server serves; DOWN before it listens and from the moment its shutdown begins (so that a
 * load balancer polling readiness turns away while calls drain). Details: state, port, open connections.
 */
public final class TripleServerHealthIndicator implements HealthIndicator {

  private final TripleServerLifecycle lifecycle;

  public TripleServerHealthIndicator(TripleServerLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  @Override
  public Health health() {
    TripleServerLifecycle.State state = lifecycle.state();
    TripleServer server = lifecycle.server();
    Health.Builder health = state == TripleServerLifecycle.State.SERVING && !server.isTerminated()
        ? Health.up() : Health.down();
    health.withDetail("state", state.name());
    if (state != TripleServerLifecycle.State.NEW) {
      health.withDetail("port", server.port()).withDetail("connections", server.openConnections());
    }
    return health.build();
  }
}
