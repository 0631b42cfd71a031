package io.triplerpc.registry.internal;

import io.triplerpc.Metadata;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.internal.rules.CompiledConditionRule;
import io.triplerpc.registry.internal.rules.Condition;
import io.triplerpc.spi.ServerInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Condition routing of one service's calls, the stage after tag routing, as Apache Dubbo 3.3 chains its
 * routers: the service's rule, then the provider applications' (the higher {@code priority} first), then the
 * consumer application's. Each condition whose {@code when} matches the call narrows the instances left to
 * those its {@code then} matches; if it leaves none, the instances stay as they were, unless its rule says
 * {@code force: true} (then the call fails, as with a condition that sends its calls nowhere).
 *
 * <p>What a call may reach is worked out once per rule generation, state of the instances, input list
 * (the tag router's) and method, and cached: a call whose conditions read only its method reads a few
 * volatile fields and looks its method up in a map, allocating nothing. Conditions that read attachments
 * (request headers) are matched per call; the outcome of each combination of them (up to
 * {@value #MAX_CACHED_CALL_CONDITIONS} such conditions) is cached too. Thread-safe.
 */
final class ConditionStage {

  /** Beyond this many conditions that read call values, outcomes are worked out per call, not cached. */
  static final int MAX_CACHED_CALL_CONDITIONS = 6;
  /** Beyond this many input lists (tags) remembered, the cache starts over. */
  private static final int MAX_INPUTS = 64;
  private static final Endpoint[] NONE = new Endpoint[0];

  /**
   * Where a call may go.
   *
   * @param endpoints the instances it may reach; null if no condition narrowed them (any of the input)
   * @param failure why it may reach none, naming the rule; null if it may reach some
   */
  record Outcome(Endpoint[] endpoints, String failure) {}

  static final Outcome UNCHANGED = new Outcome(null, null);

  private final ConditionRouter router;
  private final ServiceDirectory directory;
  private final String serviceRuleKey;
  private volatile Table table;

  ConditionStage(ConditionRouter router, ServiceDirectory directory) {
    this.router = router;
    this.directory = directory;
    this.serviceRuleKey = router.watchService(directory);
  }

  boolean rulesKnown() {
    return router.rulesKnown();
  }

  void whenRulesKnown(Runnable task) {
    router.whenRulesKnown(task);
  }

  /**
   * Where a call of {@code method} with {@code headers} (null for none) may go, among {@code input} (the
   * tag router's choice; null for every instance).
   */
  Outcome route(Endpoint[] input, String method, Metadata headers) {
    long generation = router.generation();
    RevisionGroup[] groups = directory.groups();
    // Instances the dynamic configuration disables are not there for the conditions, as Dubbo's routers never see them.
    Overrides overrides = directory.configurators == null ? null : directory.overrides();
    Table t = table;
    if (t == null || !t.isCurrent(generation, groups, overrides)) {
      t = new Table(generation, groups, overrides);
      table = t;
    }
    if (t.steps.isEmpty()) {
      return UNCHANGED;
    }
    return t.byInput(input).route(method, headers);
  }

  /** One condition in the chain, with the instances its {@code then} takes. */
  private record Step(String ruleKey, boolean force, Condition condition, Set<Endpoint> allowed) {}

  /** The consumer's values a {@code when} compares and a {@code $key} reads; the method left out. */
  private Condition.Call consumer(String method, Metadata headers) {
    return new Condition.Call() {
      @Override
      public String method() {
        return method;
      }

      @Override
      public String attachment(String key) {
        return headers == null ? null : headers.get(key);
      }

      @Override
      public String consumer(String key) {
        return switch (key) {
          case "host" -> router.consumerHost;
          case "application" -> router.consumerApplication;
          case "interface" -> directory.serviceName;
          case "version" -> emptyToNull(directory.version);
          case "group" -> emptyToNull(directory.group);
          default -> null;
        };
      }
    };
  }

  private Condition.Instance instance(Endpoint e) {
    RevisionGroup revision = e.group;
    MetadataInfo metadata = revision == null ? null : revision.metadata;
    ServerInfo.Service export = metadata == null ? null
        : metadata.export(directory.serviceName, directory.version, directory.group);
    return key -> switch (key) {
      case "host" -> e.host();
      case "port" -> String.valueOf(e.port);
      case "address" -> e.host() + ':' + e.port;
      case "protocol" -> "tri";
      case "application" -> revision == null ? null : revision.application;
      case "interface", "path" -> directory.serviceName;
      case "version" -> export == null ? null : emptyToNull(export.version());
      case "group" -> export == null ? null : emptyToNull(export.group());
      case "serialization" -> export == null ? null : emptyToNull(export.serialization());
      default -> null;
    };
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() || value.equals("*") ? null : value;
  }

  /** The chain worked out from one rule generation and one state of the instances. */
  private final class Table {
    final long generation;
    final GroupsSeen seen;
    final List<Step> steps;
    /** The dynamic configuration's overrides the table was worked out with (identity), or null. */
    final Overrides overrides;
    /** The instances of every group not disabled, for calls the tag router leaves alone. */
    final Endpoint[] all;
    /** Routes by input list (identity); the key null for {@link #all}. Replaced whole, copy on write. */
    private volatile Map<Endpoint[], Routes> inputs = Collections.emptyMap();
    private final Routes ofAll;

    Table(long generation, RevisionGroup[] groups, Overrides overrides) {
      this.generation = generation;
      this.seen = new GroupsSeen(groups);
      this.overrides = overrides;
      List<Endpoint> endpoints = new ArrayList<>();
      for (RevisionGroup group : groups) {
        for (int i = 0, n = group.size(); i < n; i++) {
          Endpoint e = group.at(i);
          if (e != null && !e.isRemoved() && !disabled(e)) {
            endpoints.add(e);
          }
        }
      }
      this.all = endpoints.toArray(NONE);
      this.steps = steps(groups);
      this.ofAll = new Routes(null);
    }

    private List<Step> steps(RevisionGroup[] groups) {
      List<CompiledRule> chain = new ArrayList<>();
      addRule(chain, serviceRuleKey);
      List<CompiledRule> providers = new ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (RevisionGroup group : groups) {
        if (seen.add(group.application) && !group.application.equals(router.consumerApplication)) {
          addRule(providers, RuleKeys.applicationConditionRouter(group.application));
        }
      }
      providers.sort(Comparator.comparingInt((CompiledRule r) -> -r.rule.header().priority())
          .thenComparing(r -> r.key));
      chain.addAll(providers);
      if (router.consumerApplication != null) {
        addRule(chain, RuleKeys.applicationConditionRouter(router.consumerApplication));
      }
      List<Step> steps = new ArrayList<>();
      Condition.Call consumer = consumer(null, null);
      for (CompiledRule r : chain) {
        for (Condition condition : r.rule.conditions()) {
          Set<Endpoint> allowed = Collections.newSetFromMap(new IdentityHashMap<>());
          for (Endpoint e : all) {
            if (condition.matchesThen(instance(e), consumer)) {
              allowed.add(e);
            }
          }
          steps.add(new Step(r.key, r.rule.header().force(), condition, allowed));
        }
      }
      return steps;
    }

    private void addRule(List<CompiledRule> chain, String key) {
      CompiledConditionRule rule = router.rule(key);
      if (rule != null) {
        chain.add(new CompiledRule(key, rule));
      }
    }

    private boolean disabled(Endpoint e) {
      return overrides != null && overrides.weight(e) == Overrides.DISABLED;
    }

    boolean isCurrent(long currentGeneration, RevisionGroup[] current, Overrides currentOverrides) {
      return currentGeneration == generation && currentOverrides == overrides && seen.isCurrent(current);
    }

    Routes byInput(Endpoint[] input) {
      if (input == null) {
        return ofAll;
      }
      Routes routes = inputs.get(input);
      if (routes == null) {
        synchronized (this) {
          routes = inputs.get(input);
          if (routes == null) {
            routes = new Routes(input);
            Map<Endpoint[], Routes> more = inputs.size() >= MAX_INPUTS ? new IdentityHashMap<>()
                : new IdentityHashMap<>(inputs);
            more.put(input, routes);
            inputs = more;
          }
        }
      }
      return routes;
    }

    /** The outcomes of calls among one input list, by method. */
    private final class Routes {
      /** The input list, null for {@link #all}. */
      final Endpoint[] input;
      final Map<String, MethodRoutes> byMethod = new ConcurrentHashMap<>();

      Routes(Endpoint[] input) {
        this.input = input;
      }

      Outcome route(String method, Metadata headers) {
        MethodRoutes routes = byMethod.get(method);
        if (routes == null) {
          routes = byMethod.computeIfAbsent(method, MethodRoutes::new);
        }
        return routes.route(headers);
      }

      /** The outcomes of one method's calls. */
      private final class MethodRoutes {
        final String method;
        /** Whether each step's {@code when} matches this method's calls; for steps reading call values, unknown. */
        final boolean[] matched;
        /** The steps whose {@code when} reads call values, and may match this method's calls. */
        final int[] perCall;
        /** With {@link #perCall} at most {@link #MAX_CACHED_CALL_CONDITIONS}: outcomes by which of them matched. */
        final AtomicReferenceArray<Outcome> outcomes;

        MethodRoutes(String method) {
          this.method = method;
          this.matched = new boolean[steps.size()];
          List<Integer> dynamic = new ArrayList<>();
          Condition.Call call = consumer(method, null);
          for (int i = 0; i < matched.length; i++) {
            Condition condition = steps.get(i).condition();
            if (condition.readsCallValues()) {
              dynamic.add(i);
            } else {
              matched[i] = condition.matchesWhen(call);
            }
          }
          this.perCall = dynamic.stream().mapToInt(Integer::intValue).toArray();
          this.outcomes = perCall.length <= MAX_CACHED_CALL_CONDITIONS
              ? new AtomicReferenceArray<>(1 << perCall.length) : null;
        }

        Outcome route(Metadata headers) {
          if (perCall.length == 0) {
            Outcome o = outcomes.get(0);
            if (o == null) {
              o = outcome(matched);
              outcomes.set(0, o);
            }
            return o;
          }
          Condition.Call call = consumer(method, headers);
          if (outcomes == null) {
            boolean[] now = matched.clone();
            for (int i : perCall) {
              now[i] = steps.get(i).condition().matchesWhen(call);
            }
            return outcome(now);
          }
          int mask = 0;
          for (int b = 0; b < perCall.length; b++) {
            if (steps.get(perCall[b]).condition().matchesWhen(call)) {
              mask |= 1 << b;
            }
          }
          Outcome o = outcomes.get(mask);
          if (o == null) {
            boolean[] now = matched.clone();
            for (int b = 0; b < perCall.length; b++) {
              now[perCall[b]] = (mask & (1 << b)) != 0;
            }
            o = outcome(now);
            outcomes.set(mask, o);
          }
          return o;
        }
      }

      /** The chain run over the input, given which conditions' {@code when} match. */
      private Outcome outcome(boolean[] whenMatches) {
        Endpoint[] list = input != null ? withoutDisabled(input) : all;
        boolean narrowed = false;
        for (int i = 0; i < whenMatches.length && list.length > 0; i++) {
          if (!whenMatches[i]) {
            continue;
          }
          Step step = steps.get(i);
          if (step.condition().blocks()) {
            return new Outcome(NONE, "Condition rule " + step.ruleKey() + " sends the calls of "
                + directory.describe() + " it matches nowhere: '" + step.condition() + "'");
          }
          List<Endpoint> kept = new ArrayList<>(list.length);
          for (Endpoint e : list) {
            if (step.allowed().contains(e)) {
              kept.add(e);
            }
          }
          if (!kept.isEmpty()) {
            if (kept.size() != list.length) {
              list = kept.toArray(NONE);
              narrowed = true;
            }
          } else if (step.force()) {
            return new Outcome(NONE, "Condition rule " + step.ruleKey() + " (force: true) leaves no instance of "
                + directory.describe() + " for the call: '" + step.condition() + "' matches none of the "
                + list.length + " it was given");
          }
        }
        return narrowed ? new Outcome(list, null) : UNCHANGED;
      }

      private Endpoint[] withoutDisabled(Endpoint[] endpoints) {
        if (overrides == null) {
          return endpoints;
        }
        List<Endpoint> enabled = new ArrayList<>(endpoints.length);
        for (Endpoint e : endpoints) {
          if (!disabled(e)) {
            enabled.add(e);
          }
        }
        return enabled.size() == endpoints.length ? endpoints : enabled.toArray(NONE);
      }
    }
  }

  /** A rule in the chain, under its key. */
  private record CompiledRule(String key, CompiledConditionRule rule) {}
}
