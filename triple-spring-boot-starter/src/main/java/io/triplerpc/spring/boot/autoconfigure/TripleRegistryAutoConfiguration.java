package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.TlsConfig;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.Registration;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.spring.boot.TripleServerCustomizer;
import io.triplerpc.spring.boot.internal.DefaultTarget;
import java.net.URI;
import java.util.Locale;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The registry (triple-registry on the class path): a {@link RemoteRegistry} for {@code triple.registry.address}
 * unless the application has a {@link Registry} bean of its own; the server registers in it, and
 * {@code @TripleReference}s without an address discover through it, told to a {@link DiscoveryObserver} bean
 * if there is one (the metrics auto-configuration's).
 */
@AutoConfiguration
@ConditionalOnClass(Registry.class)
@EnableConfigurationProperties(TripleRegistryProperties.class)
public class TripleRegistryAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty("triple.registry.address")
  Registry tripleRegistry(TripleRegistryProperties properties) {
    String address = properties.getAddress().trim();
    URI uri;
    try {
      uri = URI.create(address.contains("://") ? address : "registry://" + address);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("triple.registry.address is not registry://host:port: " + address, e);
    }
    if (!"registry".equals(uri.getScheme().toLowerCase(Locale.ROOT)) || uri.getHost() == null || uri.getPort() < 0) {
      throw new IllegalStateException("triple.registry.address must be registry://host:port (the registry server);"
          + " for another registry (ZooKeeper, say) declare a Registry bean: " + address);
    }
    RemoteRegistry.Builder builder = RemoteRegistry.builder(uri.getHost(), uri.getPort());
    if (properties.getTokenFile() != null) {
      builder.tokenFile(properties.getTokenFile());
    }
    TlsConfig tls = properties.getTls().toClientConfig("triple.registry.tls");
    if (tls != null) {
      builder.tls(tls);
    }
    return builder.build();
  }

  @Bean
  TripleServerCustomizer tripleServerRegistration(ObjectProvider<Registry> registry, TripleRegistryProperties properties,
      Environment environment) {
    return server -> {
      Registry found = registry.getIfUnique();
      if (found == null || !properties.isRegister()) {
        return;
      }
      String application = properties.getApplication();
      if (application == null || application.isBlank()) {
        application = environment.getProperty("spring.application.name");
      }
      if (application == null || application.isBlank()) {
        throw new IllegalStateException("The Triple server registers in " + found + " but has no application name:"
            + " set spring.application.name or triple.registry.application (or triple.registry.register=false)");
      }
      Registration.Builder registration = Registration.to(found).application(application.trim())
          .required(properties.isRequired());
      TransportProperties.set("triple.registry.weight", properties.getWeight(), registration::weight);
      TransportProperties.set("triple.registry.timeout", properties.getTimeout(), registration::timeout);
      if (properties.getAdvertisedHost() != null && !properties.getAdvertisedHost().isBlank()) {
        registration.host(properties.getAdvertisedHost().trim());
      }
      server.registration(registration.build());
    };
  }

  @Bean
  DefaultTarget tripleRegistryTarget(ObjectProvider<Registry> registry, ObjectProvider<DiscoveryObserver> observer) {
    Registry found = registry.getIfUnique();
    if (found == null) {
      return null;
    }
    return new DefaultTarget(balancing -> {
      Discovery.Builder discovery = Discovery.using(found);
      if (balancing != null) {
        discovery.loadBalancing(LoadBalancing.valueOf(balancing.toUpperCase(Locale.ROOT)));
      }
      observer.ifUnique(discovery::observer);
      return discovery.build();
    }, found.toString());
  }
}
