package io.triplerpc.registry.internal;

import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.internal.rules.CompiledConditionRule;
import io.triplerpc.registry.internal.rules.ConditionCompiler;
import io.triplerpc.registry.internal.rules.LiveRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The condition rules a consumer obeys, watched live in a {@link RuleSource} and compiled when they change
 * ({@link ConditionCompiler}): each called service's ({@code <service>:<version>:<group>.condition-router}),
 * each provider application's and the consumer's own application's ({@code <application>.condition-router}),
 * as Apache Dubbo 3.3's {@code ServiceStateRouter}, {@code ProviderAppStateRouter} and {@code AppStateRouter}
 * watch them. A {@link ConditionStage} per service applies them. Thread-safe.
 */
final class ConditionRouter {

  private static final Logger logger = LoggerFactory.getLogger(ConditionRouter.class);

  private final RuleSource source;
  /** The consumer's application, or null if it has none: then no application rule of its own applies. */
  final String consumerApplication;
  /** The consumer's own address, which a rule's {@code host} and {@code $host} compare. */
  final String consumerHost;
  private final ScheduledExecutorService scheduler;
  private final long waitNanos;
  private final Map<String, LiveRule<CompiledConditionRule>> rules = new ConcurrentHashMap<>();
  private final List<RuleSource.Watch> watches = new CopyOnWriteArrayList<>();
  /** Counts the changes of any rule in force here. */
  private final AtomicLong generation = new AtomicLong();
  /** How many watched rules (or their absence) the source has not told yet. */
  private final AtomicInteger unknown = new AtomicInteger();
  /** Tasks waiting for every watched rule to be known; guarded by itself. */
  private final List<Runnable> waiters = new ArrayList<>();

  /** A router for the consumer {@code consumerApplication} (null for none) at {@code consumerHost}. */
  ConditionRouter(RuleSource source, String consumerApplication, String consumerHost,
      ScheduledExecutorService scheduler, long waitNanos) {
    this.source = source;
    this.consumerApplication = consumerApplication;
    this.consumerHost = consumerHost;
    this.scheduler = scheduler;
    this.waitNanos = waitNanos;
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
    rules.computeIfAbsent(key, k -> {
      LiveRule<CompiledConditionRule> rule = new LiveRule<>(k, ConditionCompiler::parse, generation::incrementAndGet);
      unknown.incrementAndGet();
      AtomicBoolean told = new AtomicBoolean();
      Runnable known = () -> {
        if (told.compareAndSet(false, true) && unknown.decrementAndGet() == 0) {
          runWaiters();
        }
      };
      watches.add(source.watch(k, text -> {
        rule.accept(text);
        known.run();
      }));
      if (!told.get()) {
        scheduler.schedule(() -> {
          if (!told.get()) {
            logger.warn("Condition rule {} not read in {} ms: calls go without it until it arrives", k,
                TimeUnit.NANOSECONDS.toMillis(waitNanos));
            known.run();
          }
        }, waitNanos, TimeUnit.NANOSECONDS);
      }
      return rule;
    });
  }

  /** Whether the source has told every watched rule (or that there is none). One volatile read. */
  boolean rulesKnown() {
    return unknown.get() == 0;
  }

  /** Runs {@code task} once {@link #rulesKnown}: now, on this thread, if they are. */
  void whenRulesKnown(Runnable task) {
    synchronized (waiters) {
      if (unknown.get() != 0) {
        waiters.add(task);
        return;
      }
    }
    task.run();
  }

  private void runWaiters() {
    List<Runnable> ready;
    synchronized (waiters) {
      ready = List.copyOf(waiters);
      waiters.clear();
    }
    ready.forEach(Runnable::run);
  }

  /** How many times a rule in force here has changed. */
  long generation() {
    return generation.get();
  }

  /** The rule under {@code key} in force and enabled, or null. */
  CompiledConditionRule rule(String key) {
    LiveRule<CompiledConditionRule> live = rules.get(key);
    CompiledConditionRule rule = live == null ? null : live.rule();
    return rule != null && rule.header().enabled() ? rule : null;
  }

  /** Stops watching the rules. */
  void close() {
    watches.forEach(RuleSource.Watch::close);
    watches.clear();
  }
}
