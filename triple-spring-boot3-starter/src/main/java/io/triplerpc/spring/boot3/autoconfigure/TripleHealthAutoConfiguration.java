package io.triplerpc.spring.boot3.autoconfigure;

import io.triplerpc.registry.Registry;
import io.triplerpc.spring.boot.autoconfigure.TripleRegistryAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleServerAutoConfiguration;
import io.triplerpc.spring.boot.internal.TripleServerLifecycle;
import io.triplerpc.spring.boot3.internal.TripleRegistryHealthIndicator;
import io.triplerpc.spring.boot3.internal.TripleServerHealthIndicator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator health on Boot 3.5 (spring-boot-actuator on the class path), as the Boot 4 starter's
 * {@code TripleHealthAutoConfiguration} on Boot 4: {@code tripleServer}, UP while the server serves, and
 * {@code tripleRegistry}, UP while the registry answers. {@code management.health.triple.enabled=false}
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
