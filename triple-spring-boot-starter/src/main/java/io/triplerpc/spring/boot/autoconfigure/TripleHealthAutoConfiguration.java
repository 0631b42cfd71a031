package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.registry.Registry;
import io.triplerpc.spring.boot.internal.TripleRegistryHealthIndicator;
import io.triplerpc.spring.boot.internal.TripleServerHealthIndicator;
import io.triplerpc.spring.boot.internal.TripleServerLifecycle;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator health (spring-boot-health on the class path): {@code tripleServer}, UP while the server serves,
 * and {@code tripleRegistry}, UP while the registry answers. {@code management.health.triple.enabled=false}
 * turns both off.
 */
@AutoConfiguration(after = {TripleServerAutoConfiguration.class, TripleRegistryAutoConfiguration.class})
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnEnabledHealthIndicator("triple")
public class TripleHealthAutoConfiguration {

  @Bean
  @ConditionalOnBean(TripleServerLifecycle.class)
  @ConditionalOnMissingBean(name = "tripleServerHealthIndicator")
  HealthIndicator tripleServerHealthIndicator(TripleServerLifecycle lifecycle) {
    return new TripleServerHealthIndicator(lifecycle);
  }

  /** Kept apart so that its types load only with triple-registry. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Registry.class)
  static class RegistryHealth {

    @Bean
    @ConditionalOnBean(Registry.class)
    @ConditionalOnMissingBean(name = "tripleRegistryHealthIndicator")
    HealthIndicator tripleRegistryHealthIndicator(Registry registry, ObjectProvider<TripleServerLifecycle> server) {
      TripleServerLifecycle lifecycle = server.getIfAvailable();
      String probed = lifecycle != null && !lifecycle.services().isEmpty() ? lifecycle.services().get(0)
          : "grpc.health.v1.Health";
      return new TripleRegistryHealthIndicator(registry, probed);
    }
  }
}
