package io.triplerpc.registry.internal;

import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.internal.rules.CompiledConditionRule;
import io.triplerpc.registry.internal.rules.ConditionCompiler;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The condition rules a consumer obeys, watched live in a {@link RuleSource} and compiled when they change
 * ({@link ConditionCompiler}): each called service's ({@code <service>:<version>:<group>.condition-router}),
 * each provider application's and the consumer's own application's ({@code <application>.condition-router}),
 * as Apache Dubbo 3.3's {@code ServiceStateRouter}, {@code ProviderAppStateRouter} and {@code AppStateRouter}
 * watch them. A {@link ConditionStage} per service applies them. Thread-safe.
 */
final class ConditionRouter {

  /** The consumer's application, or null if it has none: then no application rule of its own applies. */
  final String consumerApplication;
  /** The consumer's own address, which a rule's {@code host} and {@code $host} compare. */
  final String consumerHost;
  private final RuleWatches<CompiledConditionRule> rules;

  /** A router for the consumer {@code consumerApplication} (null for none) at {@code consumerHost}. */
  ConditionRouter(RuleSource source, String consumerApplication, String consumerHost,
      ScheduledExecutorService scheduler, long waitNanos) {
    this.consumerApplication = consumerApplication;
    this.consumerHost = consumerHost;
    this.rules = new RuleWatches<>(source, ConditionCompiler::parse, "Condition rule", scheduler, waitNanos);
    if (consumerApplication != null) {
      watch(RuleKeys.applicationConditionRouter(consumerApplication));
    }
  }

  /** The key of the rule of {@code directory}'s export, watched from now on. */
  String watchService(ServiceDirectory directory) {
    String key = RuleKeys.serviceConditionRouter(directory.serviceName, directory.version, directory.group);
    watch(key);
    return key;
  }

  /**
   * Watches the rule of the provider application {@code application}; none when it is the consumer's own,
   * whose rule applies once (as Dubbo's {@code ProviderAppStateRouter} skips it).
   */
  void watchApplication(String application) {
    if (!application.equals(consumerApplication)) {
      watch(RuleKeys.applicationConditionRouter(application));
    }
  }

  /**
   * Watches {@code key} if not yet. Until the source has told its rule (or that there is none),
   * {@link #rulesKnown} is false, so that first calls wait for it as Dubbo reads a rule before it routes;
   * a source that does not answer within the initial wait is given up on (logged) until it does.
   */
  private void watch(String key) {
    rules.watch(key);
  }

  /** Whether the source has told every watched rule (or that there is none). One volatile read. */
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

  /** The rule under {@code key} in force and enabled, or null. */
  CompiledConditionRule rule(String key) {
    CompiledConditionRule rule = rules.rule(key);
    return rule != null && rule.header().enabled() ? rule : null;
  }

  /** Stops watching the rules. */
  void close() {
    rules.close();
  }
}
