package io.triplerpc;

import java.util.ServiceLoader;

/**
 * Finds the builders of the implementation ({@code META-INF/services} in {@code triple-core}) once,
 * so that the API never imports the internal packages that implement it.
 */
final class Implementations {

  private static volatile ServiceLoader.Provider<TripleClient.Builder> clientBuilder;
  private static volatile ServiceLoader.Provider<TripleServer.Builder> serverBuilder;

  private Implementations() {}

  static TripleClient.Builder newClientBuilder() {
    ServiceLoader.Provider<TripleClient.Builder> provider = clientBuilder;
    if (provider == null) {
      clientBuilder = provider = find(TripleClient.Builder.class);
    }
    return provider.get();
  }

  static TripleServer.Builder newServerBuilder() {
    ServiceLoader.Provider<TripleServer.Builder> provider = serverBuilder;
    if (provider == null) {
      serverBuilder = provider = find(TripleServer.Builder.class);
    }
    return provider.get();
  }

  private static <T> ServiceLoader.Provider<T> find(Class<T> type) {
    return ServiceLoader.load(type, Implementations.class.getClassLoader())
        .stream()
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("No " + type.getName() + " found: META-INF/services/"
            + type.getName() + " of triple-core is missing from the class path (a fat jar that dropped it?)"));
  }
}
