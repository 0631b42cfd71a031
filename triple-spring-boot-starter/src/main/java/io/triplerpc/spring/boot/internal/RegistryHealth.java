package io.triplerpc.spring.boot.internal;

import io.triplerpc.registry.Registry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether the registry answers: each check asks it which applications serve a service (the server's
 * first, when it has one) and is UP if the answer comes within {@link #TIMEOUT}, DOWN with the reason
 * otherwise. Consumers keep their last addresses while the registry is down, so a DOWN registry means
 * no news, not no calls: keep it out of liveness groups. Loaded only with triple-registry.
 */
public final class RegistryHealth {

  /** How long a check waits for the registry. */
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  private RegistryHealth() {
  }

  /** Asks {@code registry} for the applications serving {@code probedService}; blocks up to {@link #TIMEOUT}. */
  public static HealthReport check(Registry registry, String probedService) {
    Map<String, Object> details = new LinkedHashMap<>();
    boolean up = false;
    Throwable error = null;
    try {
      Set<String> applications = registry.applications(probedService).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      up = true;
      details.put("applications", applications);
    } catch (ExecutionException e) {
      error = e.getCause();
    } catch (TimeoutException e) {
      details.put("error", "no answer within " + TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      details.put("error", "interrupted");
    } catch (RuntimeException e) {
      error = e;
    }
    details.put("registry", registry.toString());
    details.put("service", probedService);
    return new HealthReport(up, details, error);
  }
}
