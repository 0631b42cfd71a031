package io.triplerpc.spring.boot3.internal;

import io.triplerpc.spring.boot.internal.HealthReport;
import io.triplerpc.spring.boot.internal.ServerHealth;
import io.triplerpc.spring.boot.internal.TripleServerLifecycle;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** {@link ServerHealth} as Boot 3's health indicator. */
public final class TripleServerHealthIndicator implements HealthIndicator {

  private final TripleServerLifecycle lifecycle;

  public TripleServerHealthIndicator(TripleServerLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  @Override
  public Health health() {
    return toHealth(ServerHealth.check(lifecycle));
  }

  /** The report in Boot 3's types; shared with {@link TripleRegistryHealthIndicator}. */
  static Health toHealth(HealthReport report) {
    Health.Builder health = report.up() ? Health.up() : Health.down();
    if (report.error() != null) {
      health.withException(report.error());
    }
    return health.withDetails(report.details()).build();
  }
}
