package io.triplerpc.registry.internal;

import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.internal.rules.AddressPattern;
import io.triplerpc.registry.internal.rules.LiveRule;
import io.triplerpc.registry.internal.rules.OverrideRule;
import io.triplerpc.registry.internal.rules.RuleParser;
import io.triplerpc.spi.ServerInfo;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Apache Dubbo's dynamic configuration as a Dubbo 3.3 provider obeys it: the provider application's
 * {@code <application>.configurators} and each served service's {@code <service>:<version>:<group>.configurators},
 * watched live, and what their {@code side: provider} items make of one provider instance.
 *
 * <p>As Dubbo's {@code AbstractConfigurator} matches them on a provider, an item applies when it says
 * {@code side: provider}, is enabled, its {@code addresses} (and {@code providerAddresses}, if any) name the
 * instance ({@code host}, {@code host:port}, {@code 0.0.0.0}, none), and it names the application (an
 * application-scope rule's key, a service-scope item's {@code applications} or none) and the service (a
 * service-scope rule's key, an application-scope item's {@code services} or none). A Dubbo provider adds the
 * item's parameters to the service's URL, which reaches its consumers through its metadata; Triple publishes
 * what its consumers and Dubbo's read alike: the instance's {@code weight} (one per instance in
 * application-level discovery: the last one the rules give any of its services), and a revision of its
 * metadata without the services the rules disable (none left: the instance is withdrawn). Thread-safe.
 */
public final class ProviderConfigurators implements AutoCloseable {

  /**
   * What the rules make of the instance.
   *
   * @param weight the weight the rules give it, or -1 for its own
   * @param disabled the services the rules disable, in the server's order
   */
  public record Effect(int weight, Set<ServerInfo.Service> disabled) {

    /** Nothing overridden. */
    public static final Effect NONE = new Effect(-1, Set.of());

    public Effect {
      disabled = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(disabled));
    }
  }

  private final String application;
  private final List<ServerInfo.Service> services;
  private final String host;
  private final int port;
  private final Consumer<Effect> onChange;
  private final LiveRule<OverrideRule> applicationRule;
  /** Each service's rule, in the order of {@link #services}. */
  private final List<LiveRule<OverrideRule>> serviceRules = new ArrayList<>();
  private final List<RuleSource.Watch> watches = new ArrayList<>();
  /** The effect last told; guarded by this. */
  private Effect told = Effect.NONE;

  /**
   * Watches the rules of {@code application}'s instance at {@code host:port} serving {@code services};
   * {@code onChange} hears each new effect (on the source's thread, never concurrently), the first time as
   * soon as a rule applies.
   */
  public ProviderConfigurators(RuleSource source, String application, List<ServerInfo.Service> services, String host,
      int port, Consumer<Effect> onChange) {
    this.application = Objects.requireNonNull(application, "application");
    this.services = List.copyOf(services);
    this.host = Objects.requireNonNull(host, "host");
    this.port = port;
    this.onChange = Objects.requireNonNull(onChange, "onChange");
    String appKey = RuleKeys.applicationConfigurators(application);
    this.applicationRule = new LiveRule<>(appKey, RuleParser::parseOverrideRule, this::changed);
    for (ServerInfo.Service service : this.services) {
      String key = RuleKeys.serviceConfigurators(service.name(), service.version(), service.group());
      serviceRules.add(new LiveRule<>(key, RuleParser::parseOverrideRule, this::changed));
    }
    synchronized (this) {
      watches.add(source.watch(appKey, applicationRule));
      for (int i = 0; i < this.services.size(); i++) {
        ServerInfo.Service service = this.services.get(i);
        watches.add(source.watch(RuleKeys.serviceConfigurators(service.name(), service.version(), service.group()),
            serviceRules.get(i)));
      }
    }
  }

  /** What the rules in force make of the instance now. */
  public Effect effect() {
    int weight = -1;
    Set<ServerInfo.Service> disabled = new LinkedHashSet<>();
    // The application's rule first, then each service's, a later value winning: Dubbo's order.
    for (int round = 0; round <= services.size(); round++) {
      OverrideRule rule = round == 0 ? applicationRule.rule() : serviceRules.get(round - 1).rule();
      if (rule == null || !rule.header().enabled()) {
        continue;
      }
      boolean applicationScope = "application".equals(rule.header().scope());
      String key = rule.header().key();
      if (applicationScope && key != null && !key.equals(application)) {
        continue;
      }
      for (OverrideRule.Item item : rule.items()) {
        if (!item.enabled() || item.side() != OverrideRule.Side.PROVIDER || !namesThis(item)) {
          continue;
        }
        if (!applicationScope && !item.applications().isEmpty() && !item.applications().contains(application)) {
          continue;
        }
        ServerInfo.Service own = round == 0 ? null : services.get(round - 1);
        for (ServerInfo.Service service : services) {
          if (!covers(rule, applicationScope, item, service, own)) {
            continue;
          }
          String value = item.parameters().get("weight");
          if (value != null) {
            weight = Integer.parseInt(value);
          }
          value = item.parameters().get("disabled");
          if (value != null) {
            if (Boolean.parseBoolean(value)) {
              disabled.add(service);
            } else {
              disabled.remove(service);
            }
          }
        }
      }
    }
    Set<ServerInfo.Service> ordered = new LinkedHashSet<>();
    for (ServerInfo.Service service : services) {
      if (disabled.contains(service)) {
        ordered.add(service);
      }
    }
    return weight < 0 && ordered.isEmpty() ? Effect.NONE : new Effect(weight, ordered);
  }

  /** Whether {@code item} (of {@code rule}, read under {@code own}'s key, or the application's if null) is about {@code service}. */
  private static boolean covers(OverrideRule rule, boolean applicationScope, OverrideRule.Item item,
      ServerInfo.Service service, ServerInfo.Service own) {
    String serviceKey = Configurators.serviceKey(service.name(), service.version(), service.group());
    if (applicationScope) {
      return item.services().isEmpty() || item.services().contains("*")
          || item.services().stream().anyMatch(s -> Configurators.sameService(s, serviceKey));
    }
    String key = rule.header().key();
    return key == null ? service.equals(own) : Configurators.sameService(key, serviceKey);
  }

  /** Whether the item's addresses (and provider addresses) name this instance. */
  private boolean namesThis(OverrideRule.Item item) {
    return names(item.addresses()) && names(item.providerAddresses());
  }

  private boolean names(List<AddressPattern> addresses) {
    if (addresses.isEmpty()) {
      return true;
    }
    for (AddressPattern address : addresses) {
      if (address.matches(host, port)) {
        return true;
      }
    }
    return false;
  }

  private void changed() {
    Effect now = effect();
    synchronized (this) {
      if (now.equals(told)) {
        return;
      }
      told = now;
    }
    onChange.accept(now);
  }

  /** Stops watching the rules. */
  @Override
  public synchronized void close() {
    watches.forEach(RuleSource.Watch::close);
    watches.clear();
  }
}
