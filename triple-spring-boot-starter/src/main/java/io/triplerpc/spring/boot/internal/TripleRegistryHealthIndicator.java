package io.triplerpc.spring.boot.internal;

import io.triplerpc.registry.Registry;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** {@link RegistryHealth} as Boot 4's health contributor. */
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

