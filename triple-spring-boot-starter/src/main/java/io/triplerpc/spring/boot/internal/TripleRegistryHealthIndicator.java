package io.triplerpc.spring.boot.internal;

import io.triplerpc.registry.Registry;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the registry answers: each check asks it which applications serve a service (the server's
 * first, when it has one) and is UP if the answer comes within {@link #TIMEOUT}, DOWN with the reason
 * otherwise. Consumers keep their last addresses while the registry is down, so a DOWN registry means
 * no news, not no calls: keep it out of liveness groups.
 */
public final class TripleRegistryHealthIndicator implements HealthIndicator {

  /** How long a check waits for the registry. */
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final Registry registry;
  private final String probedService;

  /** @param probedService the service whose applications each check asks for */
  public TripleRegistryHealthIndicator(Registry registry, String probedService) {
    this.registry = registry;
    this.probedService = probedService;
  }

  @Override
  public Health health() {
    Health.Builder health;
    try {
      Set<String> applications = registry.applications(probedService).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      health = Health.up().withDetail("applications", applications);
    } catch (ExecutionException e) {
      health = Health.down(e.getCause());
    } catch (TimeoutException e) {
      health = Health.down().withDetail("error", "no answer within " + TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      health = Health.down().withDetail("error", "interrupted");
    } catch (RuntimeException e) {
      health = Health.down(e);
    }
    return health.withDetail("registry", registry.toString()).withDetail("service", probedService).build();
  }
}
