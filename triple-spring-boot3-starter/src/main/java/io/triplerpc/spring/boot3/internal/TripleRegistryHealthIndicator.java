package io.triplerpc.spring.boot3.internal;

import io.triplerpc.registry.Registry;
import io.triplerpc.spring.boot.internal.RegistryHealth;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** {@link RegistryHealth} as Boot 3's health indicator. */
public final class TripleRegistryHealthIndicator implements HealthIndicator {

  private final Registry registry;
  private final String probedService;

  /** @param probedService the service whose applications each check asks for */
  public TripleRegistryHealthIndicator(Registry registry, String probedService) {
    this.registry = registry;
    this.probedService = probedService;
  }

  @Override
  public Health health() {
    return TripleServerHealthIndicator.toHealth(RegistryHealth.check(registry, probedService));
  }
}
