package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.TripleServerCustomizer;
import io.triplerpc.spring.boot.internal.ServiceBeans;
import io.triplerpc.spring.boot.internal.TripleServerLifecycle;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The application's Triple server: built from {@code triple.server.*}, the beans implementing
 * {@code @TripleService} interfaces and the {@link TripleServerCustomizer}s; started once the context has
 * refreshed, drained when it closes.
 */
@AutoConfiguration
@Conditional(OnTripleServerCondition.class)
@EnableConfigurationProperties(TripleServerProperties.class)
public class TripleServerAutoConfiguration {

  /** Names the services exported from beans; filled when the server bean is made. */
  static final class ExportedServices {
    private List<String> names = List.of();
  }

  @Bean
  ExportedServices tripleExportedServices() {
    return new ExportedServices();
  }

  @Bean
  @ConditionalOnMissingBean
  TripleServer tripleServer(TripleServerProperties properties, ObjectProvider<TripleServerCustomizer> customizers,
      ConfigurableListableBeanFactory beanFactory, ExportedServices exported) {
    TripleServer.Builder builder = TripleServer.builder().port(properties.getPort());
    if (properties.getHost() != null && !properties.getHost().isBlank()) {
      builder.host(properties.getHost().trim());
    }
    properties.applyTo(builder, "triple.server");
    TransportProperties.set("triple.server.max-concurrent-streams", properties.getMaxConcurrentStreams(),
        builder::maxConcurrentStreams);
    TransportProperties.set("triple.server.max-total-pending-outbound-bytes",
        properties.getMaxTotalPendingOutboundBytes(), size -> builder.maxTotalPendingOutboundBytes(size.toBytes()));
    TransportProperties.set("triple.server.max-connection-idle", properties.getMaxConnectionIdle(),
        builder::maxConnectionIdle);
    TransportProperties.set("triple.server.max-connection-age", properties.getMaxConnectionAge(),
        builder::maxConnectionAge);
    TransportProperties.set("triple.server.open-api-path", properties.getOpenApiPath(), builder::openApi);
    TransportProperties.set("triple.server.open-api-docs-path", properties.getOpenApiDocsPath(),
        builder::openApiDocs);
    tls(properties.getTls(), builder);
    http3(properties.getHttp3(), builder);
    TransportProperties.set("triple.server.admin-port", properties.getAdminPort(), builder::admin);
    TripleServerProperties.AdaptiveConcurrencyLimit adaptive = properties.getAdaptiveConcurrencyLimit();
    if (adaptive.isEnabled()) {
      io.triplerpc.AdaptiveConcurrencyLimit vegas = io.triplerpc.AdaptiveConcurrencyLimit.vegas();
      TransportProperties.set("triple.server.adaptive-concurrency-limit", vegas, limit -> builder.adaptiveConcurrencyLimit(
          limit.withLimits(orElse(adaptive.getInitial(), limit.initialLimit()), orElse(adaptive.getMin(), limit.minLimit()),
              orElse(adaptive.getMax(), limit.maxLimit()))));
    }
    if (properties.isExportServices()) {
      exported.names = ServiceBeans.exportAll(beanFactory, builder).stream().map(ServiceBeans.Export::serviceName).toList();
    }
    for (Map.Entry<String, Integer> limit : properties.getMaxConcurrentCalls().entrySet()) {
      try {
        builder.maxConcurrentCalls(limit.getKey(), limit.getValue());
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("triple.server.max-concurrent-calls[" + limit.getKey() + "]: " + e.getMessage(), e);
      }
    }
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    try {
      return builder.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalStateException("The Triple server's configuration (triple.server.*) is refused: " + e.getMessage(), e);
    }
  }

  private static int orElse(Integer value, int builders) {
    return value != null ? value : builders;
  }

  private static void tls(TripleServerProperties.Tls tls, TripleServer.Builder builder) {
    if (tls.getCertificateChain() == null && tls.getPrivateKey() == null) {
      if (tls.anyFile() || tls.isPlaintextAlongside() || tls.getClientAuth() != TlsConfig.ClientAuth.NONE) {
        throw new IllegalStateException("triple.server.tls.* is set without triple.server.tls.certificate-chain and"
            + " triple.server.tls.private-key");
      }
      return;
    }
    builder.tls(tls.toConfig("triple.server.tls").clientAuth(tls.getClientAuth()).build())
        .plaintextAlongsideTls(tls.isPlaintextAlongside());
  }

  private static void http3(TripleServerProperties.Http3 http3, TripleServer.Builder builder) {
    if (!http3.isEnabled()) {
      if (http3.getPort() != null || http3.getAltSvcMaxAge() != null) {
        throw new IllegalStateException("triple.server.http3.* is set without triple.server.http3.enabled=true");
      }
      return;
    }
    if (http3.getPort() == null) {
      builder.http3();
    } else {
      TransportProperties.set("triple.server.http3.port", http3.getPort(), builder::http3);
    }
    TransportProperties.set("triple.server.http3.alt-svc-max-age", http3.getAltSvcMaxAge(), builder::altSvcMaxAge);
  }

  @Bean
  TripleServerLifecycle tripleServerLifecycle(TripleServer server, ExportedServices exported,
      TripleServerProperties properties, ApplicationEventPublisher publisher, ConfigurableEnvironment environment) {
    return new TripleServerLifecycle(server, exported.names, properties.getShutdown().getGracePeriod(), publisher,
        environment);
  }
}
