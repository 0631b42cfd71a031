package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.CallCredentials;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.spring.boot.TripleClientCustomizer;
import io.triplerpc.spring.boot.internal.DefaultTarget;
import io.triplerpc.spring.boot.internal.TripleReferenceInjector;
import io.triplerpc.spring.boot.internal.TripleReferenceResolver;
import io.triplerpc.spring.boot.internal.TripleReferences;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Clients for {@code @TripleReference} fields and parameters: one per target, built from
 * {@code triple.client.*} (a named target's {@code triple.client.targets.<name>.*} over them), the
 * application's {@link CallCredentials} bean, if it has one, and the {@link TripleClientCustomizer}s, closed
 * with the context.
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
      ObjectProvider<DefaultTarget> defaultTarget, ObjectProvider<CallCredentials> credentials,
      ListableBeanFactory beanFactory, Environment environment) {
    Map<String, TripleReferences.ClientSettings> settings = new LinkedHashMap<>();
    settings.put("", settings("triple.client", null, properties, credentials, beanFactory));
    Binder binder = Binder.get(environment);
    for (Map.Entry<String, TripleClientProperties.Target> named : properties.getTargets().entrySet()) {
      String name = named.getKey();
      if (!TARGET_NAME.matcher(name).matches()) {
        throw new IllegalStateException("triple.client.targets." + name + ": a target's name is lower-case letters,"
            + " digits and dashes, as @TripleReference(target = \"payments\") names it");
      }
      String prefix = "triple.client.targets." + name;
      // triple.client.*, then the target's own over it: what the target leaves unset is inherited.
      TripleClientProperties.Target merged = new TripleClientProperties.Target();
      binder.bind("triple.client", Bindable.ofInstance(merged));
      binder.bind(prefix, Bindable.ofInstance(merged));
      keepTheTargetsChoice(named.getValue(), merged, binder.bind(prefix + ".tls.enabled", Boolean.class).orElse(null));
      String address = named.getValue().getAddress();
      settings.put(name, settings(prefix, address == null || address.isBlank() ? null : address.trim(), merged,
          credentials, beanFactory));
    }
    return new TripleReferences(settings, customizers.orderedStream().toList(), defaultTarget.getIfAvailable(),
        environment);
  }

  /**
   * Where a target sets one of two settings that exclude each other, the other one inherited from
   * {@code triple.client.*} goes; where it turns TLS off, the inherited TLS files go.
   */
  private static void keepTheTargetsChoice(ClientProperties own, ClientProperties merged, Boolean tlsEnabled) {
    if (own.getServiceConfig() != null) {
      merged.setServiceConfigLocation(null);
    } else if (own.getServiceConfigLocation() != null) {
      merged.setServiceConfig(null);
    }
    if (own.getBearerToken() != null) {
      merged.setCallCredentials(null);
    } else if (own.getCallCredentials() != null) {
      merged.setBearerToken(null);
    }
    if (Boolean.FALSE.equals(tlsEnabled)) {
      merged.getTls().setCertificateChain(null);
      merged.getTls().setPrivateKey(null);
      merged.getTls().setTrustCertificates(null);
    }
  }

  private static final Pattern TARGET_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

  /**
   * The settings of {@code properties}, checked now on a builder of their own, so that a value the builder
   * refuses stops the start-up whether or not a reference uses it.
   */
  private static TripleReferences.ClientSettings settings(String prefix, String address, ClientProperties properties,
      ObjectProvider<CallCredentials> credentialBeans, ListableBeanFactory beanFactory) {
    TlsConfig tls = properties.getTls().toClientConfig(prefix + ".tls");
    CallCredentials credentials = credentials(prefix, properties, credentialBeans, beanFactory);
    String balancing = properties.loadBalancingName(prefix);
    Consumer<TripleClient.Builder> configure = builder -> {
      properties.applyTo(builder, prefix);
      if (tls != null) {
        builder.tls(tls);
      }
      if (credentials != null) {
        builder.callCredentials(credentials);
      }
    };
    configure.accept(TripleClient.builder());
    return new TripleReferences.ClientSettings(prefix, address, properties.getDeadline(), balancing, configure);
  }

  /** The credentials the properties ask for, or the application's one CallCredentials bean; null for none. */
  private static CallCredentials credentials(String prefix, ClientProperties properties,
      ObjectProvider<CallCredentials> credentialBeans, ListableBeanFactory beanFactory) {
    CallCredentials credentials;
    if (properties.getBearerToken() != null && properties.getCallCredentials() != null) {
      throw new IllegalStateException(prefix + ".bearer-token and " + prefix + ".call-credentials are both set (a"
          + " target inherits those of triple.client): set one");
    }
    if (properties.getBearerToken() != null) {
      try {
        credentials = CallCredentials.bearerToken(properties.getBearerToken().trim());
      } catch (IllegalArgumentException e) {
        // Never the token itself: it would reach the logs.
        throw new IllegalStateException(prefix + ".bearer-token: " + e.getMessage(), e);
      }
    } else if (properties.getCallCredentials() != null) {
      String name = properties.getCallCredentials().trim();
      if (!beanFactory.containsBean(name) || !beanFactory.isTypeMatch(name, CallCredentials.class)) {
        throw new IllegalStateException(prefix + ".call-credentials names no CallCredentials bean: " + name);
      }
      credentials = beanFactory.getBean(name, CallCredentials.class);
    } else {
      credentials = credentialBeans.getIfUnique();
    }
    if (credentials != null && Boolean.TRUE.equals(properties.getCleartextCredentials())) {
      credentials = credentials.allowingCleartext();
    }
    return credentials;
  }
}
