package io.triplerpc.spring.boot.internal;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.spring.boot.TripleClientCustomizer;
import io.triplerpc.spring.boot.TripleReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.env.Environment;

/**
 * The clients and proxies behind {@link TripleReference}s: one {@link TripleClient} per target (the
 * resolved address, or the registry) and settings (those of {@code triple.client.*}, or of a named
 * target), shared by all its references, closed with the context; one proxy per client, interface,
 * version and group. Thread-safe.
 */
public final class TripleReferences implements DisposableBean {

  /**
   * What {@code triple.client.*}, or a named target's {@code triple.client.targets.<name>.*} over it, says.
   *
   * @param prefix the properties' prefix, for messages
   * @param address the named target's address, or null
   * @param deadline of each call, or null for none
   * @param loadBalancing the balancing as a target's query names it ({@code pick_first}), or null
   * @param configure sets the builder's options from the properties
   */
  public record ClientSettings(String prefix, String address, Duration deadline, String loadBalancing,
      Consumer<TripleClient.Builder> configure) {}

  private static final Logger log = LoggerFactory.getLogger(TripleReferences.class);

  /** The target schemes whose query takes {@code lb=}: triple-registry's. */
  private static final List<String> BALANCED_SCHEMES = List.of("dns:", "static:", "registry:");

  /** By target name; "" for {@code triple.client.*} alone. */
  private final Map<String, ClientSettings> settings;
  private final List<TripleClientCustomizer> customizers;
  private final DefaultTarget defaultTarget;
  private final Environment environment;
  private final Map<ClientKey, TripleClient> clients = new ConcurrentHashMap<>();
  private final Map<ProxyKey, Object> proxies = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** A client: the target name ("" for none) and the resolved address ("" for the registry's). */
  private record ClientKey(String name, String target) {}

  private record ProxyKey(ClientKey client, Class<?> type, String version, String group) {}

  /**
   * @param settings by target name, with "" for the references that name none
   * @param defaultTarget the registry's discovery, or null when the application has none
   */
  public TripleReferences(Map<String, ClientSettings> settings, List<TripleClientCustomizer> customizers,
      DefaultTarget defaultTarget, Environment environment) {
    this.settings = Map.copyOf(settings);
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
    String name = reference.target().trim();
    ClientSettings chosen = settings.get(name);
    if (chosen == null) {
      throw new IllegalStateException("@TripleReference on " + where + " names target '" + name + "', but no"
          + " triple.client.targets." + name + ".* property is set");
    }
    String target;
    try {
      target = environment.resolveRequiredPlaceholders(reference.address()).trim();
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("@TripleReference on " + where + ": " + e.getMessage(), e);
    }
    if (target.isEmpty() && chosen.address() != null) {
      target = chosen.address().trim();
    }
    if (target.isEmpty() && defaultTarget == null) {
      throw new IllegalStateException("@TripleReference on " + where + " names no address and the application has"
          + " no registry: give it address = \"host:port\"" + (name.isEmpty() ? "" : " or set " + chosen.prefix()
          + ".address") + ", or set triple.registry.address");
    }
    ClientKey client = new ClientKey(name, target);
    ProxyKey key = new ProxyKey(client, type, reference.version(), reference.group());
    return proxies.computeIfAbsent(key, k -> {
      TripleClient made = client(client, chosen, where);
      try {
        return made.proxy(type, options(chosen, reference));
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("@TripleReference on " + where + ": " + e.getMessage(), e);
      }
    });
  }

  /** The clients of {@code triple.client.*} alone made so far, by target ("" for the registry's). */
  public Map<String, TripleClient> clients() {
    return clients("");
  }

  /** The clients of the named target ("" for none) made so far, by address ("" for the registry's). */
  public Map<String, TripleClient> clients(String targetName) {
    Map<String, TripleClient> named = new HashMap<>();
    clients.forEach((key, client) -> {
      if (key.name().equals(targetName)) {
        named.put(key.target(), client);
      }
    });
    return Map.copyOf(named);
  }

  private TripleClient client(ClientKey key, ClientSettings chosen, String where) {
    return clients.computeIfAbsent(key, k -> {
      String t = k.target();
      TripleClient.Builder builder = TripleClient.builder();
      String address = null;
      try {
        if (t.isEmpty()) {
          builder.cluster(defaultTarget.cluster().apply(chosen.loadBalancing()));
        } else {
          address = balanced(t, chosen);
          builder.address(address);
        }
      } catch (IllegalArgumentException | IllegalStateException e) {
        // A balancing the target's scheme refuses is the property's doing: name it.
        String added = address != null && !address.equals(t) ? " (" + chosen.prefix() + ".load-balancing)" : "";
        throw new IllegalStateException("@TripleReference on " + where + ": " + e.getMessage() + added, e);
      }
      chosen.configure().accept(builder);
      for (TripleClientCustomizer customizer : customizers) {
        customizer.customize(t, builder);
      }
      log.debug("Triple client for {} ({})", t.isEmpty() ? defaultTarget.description() : t, chosen.prefix());
      return builder.build();
    });
  }

  /**
   * {@code target} with the settings' balancing in its query, for the schemes that take one and unless it
   * names its own; a {@code host:port} target, one server, is left as it is.
   */
  private static String balanced(String target, ClientSettings chosen) {
    String lb = chosen.loadBalancing();
    int scheme = target.indexOf("://");
    if (lb == null || scheme < 0) {
      return target;
    }
    String prefix = target.substring(0, scheme + 1).toLowerCase(Locale.ROOT);
    if (!BALANCED_SCHEMES.contains(prefix)) {
      throw new IllegalStateException(chosen.prefix() + ".load-balancing applies to the application's registry and"
          + " to dns:///, static:// and registry:// targets, not to " + target.substring(0, scheme + 3) + " ones");
    }
    int query = target.indexOf('?');
    if (query >= 0 && ("&" + target.substring(query + 1)).contains("&lb=")) {
      return target;
    }
    return target + (query >= 0 ? "&" : "?") + "lb=" + lb;
  }

  private static CallOptions options(ClientSettings chosen, TripleReference reference) {
    CallOptions options = CallOptions.DEFAULT;
    if (chosen.deadline() != null) {
      options = options.withTimeout(chosen.deadline());
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
