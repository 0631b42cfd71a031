package io.triplerpc.spring.boot.internal;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.spring.boot.TripleClientCustomizer;
import io.triplerpc.spring.boot.TripleReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.env.Environment;

/**
 * The clients and proxies behind {@link TripleReference}s: one {@link TripleClient} per target (the
 * resolved address, or the registry), shared by all its references, closed with the context; one proxy
 * per target, interface, version and group. Thread-safe.
 */
public final class TripleReferences implements DisposableBean {

  /**
   * What {@code triple.client.*} says, applied to every client.
   *
   * @param deadline of each call, or null for none
   * @param configure sets the builder's options from the properties
   */
  public record ClientSettings(Duration deadline, Consumer<TripleClient.Builder> configure) {}

  private static final Logger log = LoggerFactory.getLogger(TripleReferences.class);

  private final ClientSettings settings;
  private final List<TripleClientCustomizer> customizers;
  private final DefaultTarget defaultTarget;
  private final Environment environment;
  /** Keyed by the resolved address; "" for the registry's client. */
  private final Map<String, TripleClient> clients = new ConcurrentHashMap<>();
  private final Map<ProxyKey, Object> proxies = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private record ProxyKey(String target, Class<?> type, String version, String group) {}

  /**
   * @param defaultTarget the registry's discovery, or null when the application has none
   */
  public TripleReferences(ClientSettings settings, List<TripleClientCustomizer> customizers,
      DefaultTarget defaultTarget, Environment environment) {
    this.settings = settings;
    this.customizers = List.copyOf(customizers);
    this.defaultTarget = defaultTarget;
    this.environment = environment;
  }

  /**
   * The proxy {@code reference} names, for an injection point of type {@code type}.
   *
   * @param where the injection point, for messages
   * @throws IllegalStateException if the reference cannot be honoured; the message names {@code where}
   */
  public Object proxy(Class<?> type, TripleReference reference, String where) {
    if (closed) {
      throw new IllegalStateException("The application context is closing: no client for " + where);
    }
    String target;
    try {
      target = environment.resolveRequiredPlaceholders(reference.address()).trim();
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("@TripleReference on " + where + ": " + e.getMessage(), e);
    }
    if (target.isEmpty() && defaultTarget == null) {
      throw new IllegalStateException("@TripleReference on " + where + " names no address and the application has"
          + " no registry: give it address = \"host:port\", or set triple.registry.address");
    }
    ProxyKey key = new ProxyKey(target, type, reference.version(), reference.group());
    return proxies.computeIfAbsent(key, k -> {
      TripleClient client = client(target, where);
      try {
        return client.proxy(type, options(reference));
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("@TripleReference on " + where + ": " + e.getMessage(), e);
      }
    });
  }

  /** The clients made so far, by target ("" for the registry's). */
  public Map<String, TripleClient> clients() {
    return Map.copyOf(clients);
  }

  private TripleClient client(String target, String where) {
    return clients.computeIfAbsent(target, t -> {
      TripleClient.Builder builder = TripleClient.builder();
      try {
        if (t.isEmpty()) {
          builder.cluster(defaultTarget.cluster().get());
        } else {
          builder.address(t);
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("@TripleReference on " + where + ": " + e.getMessage(), e);
      }
      settings.configure().accept(builder);
      for (TripleClientCustomizer customizer : customizers) {
        customizer.customize(t, builder);
      }
      log.debug("Triple client for {}", t.isEmpty() ? defaultTarget.description() : t);
      return builder.build();
    });
  }

  private CallOptions options(TripleReference reference) {
    CallOptions options = CallOptions.DEFAULT;
    if (settings.deadline() != null) {
      options = options.withTimeout(settings.deadline());
    }
    if (!reference.version().isEmpty()) {
      options = options.withServiceVersion(reference.version());
    }
    if (!reference.group().isEmpty()) {
      options = options.withServiceGroup(reference.group());
    }
    return options;
  }

  /** Closes every client; calls still in flight fail with UNAVAILABLE. */
  @Override
  public void destroy() {
    closed = true;
    List<TripleClient> open = new ArrayList<>(clients.values());
    clients.clear();
    proxies.clear();
    for (TripleClient client : open) {
      client.close();
    }
  }
}
