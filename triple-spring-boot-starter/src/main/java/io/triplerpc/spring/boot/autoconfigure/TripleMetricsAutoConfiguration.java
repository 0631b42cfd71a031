package io.triplerpc.spring.boot.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.triplerpc.micrometer.DiscoveryMetrics;
import io.triplerpc.micrometer.TripleMetrics;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.spring.boot.TripleClientCustomizer;
import io.triplerpc.spring.boot.TripleServerCustomizer;
import io.triplerpc.spring.boot.TripleServerStartedEvent;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * triple-micrometer's metrics in the application's {@link MeterRegistry}: the server's and the clients' call
 * metrics (gRPC's A66 names), the server's connection and write-queue gauges once it listens, and, with
 * triple-registry, discovery's ({@code triple.registry.instances}, {@code triple.registry.push.lag}).
 * {@code triple.metrics.enabled=false} turns them off.
 */
// Boot 4's names, then Boot 3's (this class is also triple-spring-boot3-starter's); a name absent from the
// class path orders nothing.
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass({TripleMetrics.class, MeterRegistry.class})
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "triple.metrics.enabled", matchIfMissing = true)
public class TripleMetricsAutoConfiguration {

  @Bean
  TripleServerCustomizer tripleServerMetrics(MeterRegistry registry) {
    return server -> server.callObserver(TripleMetrics.server(registry));
  }

  @Bean
  ApplicationListener<TripleServerStartedEvent> tripleServerGauges(MeterRegistry registry) {
    return started -> TripleMetrics.bind(started.getServer(), registry);
  }

  @Bean
  TripleClientCustomizer tripleClientMetrics(MeterRegistry registry) {
    return (target, client) -> client.callObserver(TripleMetrics.client(registry));
  }

  /** Discovery's meters, for the client that finds its servers through the registry; loads only with triple-registry. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(DiscoveryObserver.class)
  static class DiscoveryMetricsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DiscoveryObserver tripleDiscoveryMetrics(MeterRegistry registry) {
      return DiscoveryMetrics.observer(registry);
    }
  }
}
