package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.TlsConfig;
import io.triplerpc.spring.boot.TripleClientCustomizer;
import io.triplerpc.spring.boot.internal.DefaultTarget;
import io.triplerpc.spring.boot.internal.TripleReferenceInjector;
import io.triplerpc.spring.boot.internal.TripleReferenceResolver;
import io.triplerpc.spring.boot.internal.TripleReferences;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Clients for {@code @TripleReference} fields and parameters: one per target, built from
 * {@code triple.client.*} and the {@link TripleClientCustomizer}s, closed with the context.
 */
@AutoConfiguration(after = TripleRegistryAutoConfiguration.class)
@EnableConfigurationProperties(TripleClientProperties.class)
public class TripleClientAutoConfiguration {

  @Bean
  static BeanFactoryPostProcessor tripleReferenceResolverInstaller() {
    return TripleReferenceResolver.installer();
  }

  @Bean
  static TripleReferenceInjector tripleReferenceInjector() {
    return new TripleReferenceInjector();
  }

  @Bean
  TripleReferences tripleReferences(TripleClientProperties properties, ObjectProvider<TripleClientCustomizer> customizers,
      ObjectProvider<DefaultTarget> defaultTarget, Environment environment) {
    TlsConfig tls = properties.getTls().toClientConfig("triple.client.tls");
    TripleReferences.ClientSettings settings = new TripleReferences.ClientSettings(properties.getDeadline(),
        builder -> {
          properties.applyTo(builder, "triple.client");
          if (tls != null) {
            builder.tls(tls);
          }
        });
    return new TripleReferences(settings, customizers.orderedStream().toList(), defaultTarget.getIfAvailable(),
        environment);
  }
}
