package io.triplerpc.spring.boot.internal;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** {@link ServerHealth} as Boot 4's health contributor. */
public final class TripleServerHealthIndicator implements HealthIndicator {

  private final TripleServerLifecycle lifecycle;

  public TripleServerHealthIndicator(TripleServerLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  @Override
  public Health health() {
    return toHealth(ServerHealth.check(lifecycle));
  }

  /** The report in Boot 4's types; shared with {@link TripleRegistryHealthIndicator}. */
  static Health toHealth(HealthReport report) {
    Health.Builder health = report.up() ? Health.up() : Health.down();
    if (report.error() != null) {
      health.withException(report.error());
    }
    return health.withDetails(report.details()).build();
  }
}
