package io.triplerpc.registry.internal;

import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.internal.rules.AddressPattern;
import io.triplerpc.registry.internal.rules.LiveRule;
import io.triplerpc.registry.internal.rules.OverrideRule;
import io.triplerpc.registry.internal.rules.RuleParser;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Apache Dubbo's dynamic configuration as a Dubbo 3.3 consumer obeys it: the consumer application's
 * {@code <application>.configurators} and each called service's {@code <service>:<version>:<group>.configurators},
 * watched live in a {@link RuleSource}, and the {@link Overrides} they make of one service's instances.
 *
 * <p>As Dubbo's {@code AbstractConfigurator} matches them, an item applies to a consumer when it says
 * {@code side: consumer}, is enabled, names the consumer's host in {@code addresses} (or none, or
 * {@code 0.0.0.0}) and, in a service-scope rule, its application in {@code applications} (or none); in an
 * application-scope rule its {@code services} (or none) name the service called, and the rule's key is the
 * consumer's application. Its {@code providerAddresses} (none: every one) choose the instances whose
 * {@code timeout}, {@code weight} and {@code disabled} it overrides; {@code retries} is the consumer's own,
 * and comes from items without {@code providerAddresses} (Dubbo matches those against the consumer's URL).
 * The application's rule applies first, then the service's, each item in order, a later value winning.
 * Items with {@code side: provider} are for providers ({@code ProviderConfigurators}).
 *
 * <p>Nothing here runs per call: a rule's change works out the overrides of every watched directory at once,
 * and a {@link ServiceDirectory} whose instances changed asks for its own again ({@link #generation}). Thread-safe.
 */
final class Configurators {

  private final String application;
  private final String host;
  private final long warmupMillis;
  private final LongSupplier wallClock;
  private final RuleSource source;
  /** The consumer application's rule, or null when the consumer has no application name. */
  private final LiveRule<OverrideRule> applicationRule;
  /** Each called service's rule, by key. */
  private final Map<String, LiveRule<OverrideRule>> serviceRules = new ConcurrentHashMap<>();
  private final List<RuleSource.Watch> watches = new CopyOnWriteArrayList<>();
  /** Counts the changes of any rule in force here. */
  private final AtomicLong generation = new AtomicLong();
  /** The directories watched, whose overrides are worked out again as soon as a rule changes. */
  private final List<ServiceDirectory> directories = new CopyOnWriteArrayList<>();

  /**
   * Overrides read from {@code source} for a consumer of {@code application} (null: none, so that only
   * service-scope items without {@code applications} apply) on {@code host}.
   */
  Configurators(RuleSource source, String application, String host, long warmupMillis, LongSupplier wallClock) {
    this.source = source;
    this.application = application;
    this.host = host;
    this.warmupMillis = warmupMillis;
    this.wallClock = wallClock;
    if (application == null) {
      applicationRule = null;
    } else {
      String key = RuleKeys.applicationConfigurators(application);
      applicationRule = new LiveRule<>(key, RuleParser::parseOverrideRule, this::changed);
      watches.add(source.watch(key, applicationRule));
    }
  }

  /**
   * A rule in force changed: the directories' overrides are worked out now, on the source's thread, so that
   * calls find them ready (a change of the instances is worked out by the first call after it).
   */
  private void changed() {
    generation.incrementAndGet();
    for (ServiceDirectory directory : directories) {
      directory.overrides();
    }
  }

  /** Starts watching the rule of {@code directory}'s service, if not yet. */
  void watch(ServiceDirectory directory) {
    directories.add(directory);
    String key = RuleKeys.serviceConfigurators(directory.serviceName, directory.version, directory.group);
    LiveRule<OverrideRule> rule = new LiveRule<>(key, RuleParser::parseOverrideRule, this::changed);
    // In the map before the watch: a source may tell the rule at once, and the overrides then read it there.
    if (serviceRules.putIfAbsent(key, rule) == null) {
      watches.add(source.watch(key, rule));
    }
  }

  /** How many times a rule in force here has changed. */
  long generation() {
    return generation.get();
  }

  /** The wall clock warm-up is computed on, in epoch milliseconds. */
  long now() {
    return wallClock.getAsLong();
  }

  /**
   * The overrides of {@code directory}'s instances in {@code groups} under the rules of {@code generation}
   * (read before the rules), worked out now; {@link Overrides#isEmpty} if no item applies.
   */
  Overrides compute(ServiceDirectory directory, long generation, RevisionGroup[] groups) {
    OverrideRule appRule = applicationRule == null ? null : applicationRule.rule();
    LiveRule<OverrideRule> live = serviceRules.get(
        RuleKeys.serviceConfigurators(directory.serviceName, directory.version, directory.group));
    OverrideRule serviceRule = live == null ? null : live.rule();
    String serviceKey = serviceKey(directory.serviceName, directory.version, directory.group);
    List<OverrideRule.Item> items = new java.util.ArrayList<>();
    collect(appRule, serviceKey, items);
    collect(serviceRule, serviceKey, items);

    int retries = -1;
    for (OverrideRule.Item item : items) {
      String value = item.providerAddresses().isEmpty() ? item.parameters().get("retries") : null;
      if (value != null) {
        retries = Integer.parseInt(value);
      }
    }
    // The groups' change counts before their instances: a change made meanwhile leaves the result stale.
    GroupsSeen seen = new GroupsSeen(groups);
    Map<Endpoint, Overrides.Change> byEndpoint = new IdentityHashMap<>();
    List<Endpoint> endpoints = new java.util.ArrayList<>();
    long now = wallClock.getAsLong();
    long warmUntil = 0;
    for (RevisionGroup group : groups) {
      for (int i = 0, n = group.size(); i < n; i++) {
        Endpoint e = group.at(i);
        if (e == null) {
          continue;
        }
        endpoints.add(e);
        Overrides.Change o = overrideOf(e, items);
        if (o != null) {
          byEndpoint.put(e, o);
          long start = e.startTimeMillis();
          if (o.weight() >= 0 && Warmup.warming(start, warmupMillis, now)) {
            warmUntil = Math.max(warmUntil, start + warmupMillis);
          }
        }
      }
    }
    // An overridden weight warms up as the registry's would: the overrides are worked out again a tick later.
    long expiresAt = warmUntil > now ? now + Warmup.tickMillis(warmupMillis) : Long.MAX_VALUE;
    return new Overrides(generation, seen, endpoints.toArray(new Endpoint[0]), retries, byEndpoint,
        warmupMillis, now, expiresAt);
  }

  /** The items of {@code rule} that apply to this consumer's calls of the service {@code serviceKey}. */
  private void collect(OverrideRule rule, String serviceKey, List<OverrideRule.Item> into) {
    if (rule == null || !rule.header().enabled()) {
      return;
    }
    boolean applicationScope = "application".equals(rule.header().scope());
    String key = rule.header().key();
    if (key != null) {
      // Dubbo makes the key the application (application scope) or the service (service scope) each item names.
      if (applicationScope ? !key.equals(application) : !sameService(key, serviceKey)) {
        return;
      }
    }
    for (OverrideRule.Item item : rule.items()) {
      if (!item.enabled() || item.side() != OverrideRule.Side.CONSUMER || !namesHost(item.addresses())) {
        continue;
      }
      if (applicationScope) {
        if (!item.services().isEmpty() && !item.services().contains("*")
            && item.services().stream().noneMatch(s -> sameService(s, serviceKey))) {
          continue;
        }
      } else if (!item.applications().isEmpty() && !item.applications().contains(application)) {
        continue;
      }
      into.add(item);
    }
  }

  private boolean namesHost(List<AddressPattern> addresses) {
    if (addresses.isEmpty()) {
      return true;
    }
    for (AddressPattern address : addresses) {
      if (address.matchesHost(host)) {
        return true;
      }
    }
    return false;
  }

  /** What {@code items} override of {@code e}, or null if nothing. */
  private static Overrides.Change overrideOf(Endpoint e, List<OverrideRule.Item> items) {
    int weight = -1;
    boolean disabled = false;
    long timeoutNanos = 0;
    boolean any = false;
    String host = null;
    for (OverrideRule.Item item : items) {
      if (!item.providerAddresses().isEmpty()) {
        if (host == null) {
          host = e.host();
        }
        boolean named = false;
        for (AddressPattern address : item.providerAddresses()) {
          named |= address.matches(host, e.port);
        }
        if (!named) {
          continue;
        }
      }
      Map<String, String> parameters = item.parameters();
      String value = parameters.get("weight");
      if (value != null) {
        weight = Integer.parseInt(value);
        any = true;
      }
      value = parameters.get("disabled");
      if (value != null) {
        disabled = Boolean.parseBoolean(value);
        any = true;
      }
      value = parameters.get("timeout");
      if (value != null) {
        timeoutNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(value));
        any = true;
      }
    }
    return any ? new Overrides.Change(weight, disabled, timeoutNanos) : null;
  }

  /** Dubbo's service key: {@code [group/]service[:version]}. */
  static String serviceKey(String service, String version, String group) {
    StringBuilder key = new StringBuilder();
    if (group != null && !group.isEmpty()) {
      key.append(group).append('/');
    }
    key.append(service);
    if (version != null && !version.isEmpty()) {
      key.append(':').append(version);
    }
    return key.toString();
  }

  /**
   * Whether a rule's service ({@code [group/]service[:version]}, as Dubbo Admin writes it) is the one
   * called; a version or group of {@code *} names any.
   */
  static boolean sameService(String named, String serviceKey) {
    if (named.equals(serviceKey)) {
      return true;
    }
    String[] a = split(named);
    String[] b = split(serviceKey);
    return a[1].equals(b[1]) && (a[0].equals("*") || a[0].equals(b[0])) && (a[2].equals("*") || a[2].equals(b[2]));
  }

  /** {@code [group/]service[:version]} as group, service, version ("" for none). */
  private static String[] split(String key) {
    int slash = key.indexOf('/');
    String group = slash > 0 ? key.substring(0, slash) : "";
    String rest = slash > 0 ? key.substring(slash + 1) : key;
    int colon = rest.indexOf(':');
    return colon > 0
        ? new String[] {group, rest.substring(0, colon), rest.substring(colon + 1)}
        : new String[] {group, rest, ""};
  }

  /** Stops watching the rules. */
  void close() {
    watches.forEach(RuleSource.Watch::close);
    watches.clear();
    directories.clear();
  }
}
