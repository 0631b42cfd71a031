package io.triplerpc.registry.internal;

import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.internal.rules.RuleParser;
import io.triplerpc.registry.internal.rules.TagRule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Apache Dubbo's tag routing, as its {@code TagStateRouter} does it, for the provider applications a
 * consumer calls: each application's tag rule ({@code <application>.tag-router}) watched live in a
 * {@link RuleSource}, and the instances a request with a tag (or without) may go to.
 *
 * <ul>
 *   <li>A request with tag {@code T}: the instances whose address the rule gives {@code T}; if there are
 *       none, and the rule does not say {@code force: true}, the instances the rule tags with nothing.
 *   <li>A request without a tag: the instances the rule tags with nothing (none if it tags them all).
 *   <li>An application without a rule (or with one disabled): every instance, whatever the tag.
 * </ul>
 *
 * <p>The lists are worked out when a rule or the instances change, not per call: a
 * {@link ServiceDirectory} caches them per {@link #generation} (see {@link ServiceDirectory#routed}).
 * Thread-safe.
 */
final class TagRouter {

  /** The key a request's tag is cached under when no rule names it: all such tags route alike. */
  static final String UNKNOWN_TAG = "\0unknown";
  /** The key of requests without a tag. */
  static final String NO_TAG = "";

  private final RuleWatches<TagRule> rules;

  TagRouter(RuleSource source, java.util.concurrent.ScheduledExecutorService scheduler, long waitNanos) {
    this.rules = new RuleWatches<>(source, RuleParser::parseTagRule, "Tag rule", scheduler, waitNanos);
  }

  /**
   * Starts watching {@code application}'s tag rule, if not yet. Until the source has told it (the rule, or
   * that there is none), {@link #rulesKnown} is false: calls wait for it, as Dubbo reads a rule before it
   * routes, so that a consumer's first calls cannot reach a canary the rule keeps them from.
   */
  void watch(String application) {
    rules.watch(RuleKeys.tagRouter(application));
  }

  /** Whether the source has told every watched application's rule (or that it has none). One volatile read. */
  boolean rulesKnown() {
    return rules.rulesKnown();
  }

  /** Runs {@code task} once {@link #rulesKnown}: now, on this thread, if they are. */
  void whenRulesKnown(Runnable task) {
    rules.whenRulesKnown(task);
  }

  /** How many times a rule in force here has changed. */
  long generation() {
    return rules.generation();
  }

  /** {@code application}'s tag rule in force and enabled, or null. */
  TagRule rule(String application) {
    TagRule rule = rules.rule(RuleKeys.tagRouter(application));
    return rule != null && rule.header().enabled() ? rule : null;
  }

  /** The tags the rules of {@code groups}' applications name; empty if none has a rule. */
  Set<String> tagNames(RevisionGroup[] groups) {
    Set<String> names = new HashSet<>();
    for (RevisionGroup group : groups) {
      TagRule rule = rule(group.application);
      if (rule != null) {
        rule.tags().forEach(tag -> names.add(tag.name()));
      }
    }
    return names;
  }

  /**
   * The instances of {@code groups} that a request with {@code key} (a tag, {@link #NO_TAG} or
   * {@link #UNKNOWN_TAG}) may go to; empty if none may.
   */
  Endpoint[] route(RevisionGroup[] groups, String key) {
    List<Endpoint> tagged = new ArrayList<>();
    List<Endpoint> untagged = new ArrayList<>();
    boolean force = false;
    for (RevisionGroup group : groups) {
      TagRule rule = rule(group.application);
      TagRule.Tag wanted = null;
      if (rule != null) {
        for (TagRule.Tag tag : rule.tags()) {
          if (tag.name().equals(key)) {
            wanted = tag;
            force |= rule.header().force();
          }
        }
      }
      for (int i = 0, n = group.size(); i < n; i++) {
        Endpoint e = group.at(i);
        if (e == null || e.isRemoved()) {
          continue;
        }
        if (rule == null) {
          untagged.add(e);
          continue;
        }
        String host = e.host();
        if (wanted != null && wanted.matches(host, e.port)) {
          tagged.add(e);
        }
        if (!taggedByRule(rule, host, e.port)) {
          untagged.add(e);
        }
      }
    }
    // A tagged request falls back to the untagged instances when no instance has its tag, unless forced.
    List<Endpoint> chosen = key.equals(NO_TAG) || (tagged.isEmpty() && !force) ? untagged : tagged;
    return chosen.toArray(new Endpoint[0]);
  }

  private static boolean taggedByRule(TagRule rule, String host, int port) {
    for (TagRule.Tag tag : rule.tags()) {
      if (tag.matches(host, port)) {
        return true;
      }
    }
    return false;
  }

  /** Stops watching the rules. */
  void close() {
    rules.close();
  }
}
