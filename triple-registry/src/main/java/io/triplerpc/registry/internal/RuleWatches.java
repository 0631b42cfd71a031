package io.triplerpc.registry.internal;

import io.triplerpc.registry.RuleSource;
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
 * Rules of one kind watched live in a {@link RuleSource}, by key, each parsed when it changes; what
 * {@link TagRouter} and {@link ConditionRouter} share. Until the source has told every watched key's rule (or that
 * there is none), {@link #rulesKnown} is false, so that first calls wait for them, as Dubbo reads a rule before it
 * routes; a key the source does not tell within the initial wait is given up on (logged) until it does, so that
 * a config center that does not answer cannot hold every call. Thread-safe.
 *
 * @param <R> the parsed rule
 */
final class RuleWatches<R> {

  private static final Logger logger = LoggerFactory.getLogger(RuleWatches.class);

  private final RuleSource source;
  private final LiveRule.Parser<R> parser;
  /** What the log calls a rule of this kind ("Tag rule"). */
  private final String kind;
  private final ScheduledExecutorService scheduler;
  private final long waitNanos;
  private final Map<String, LiveRule<R>> rules = new ConcurrentHashMap<>();
  private final List<RuleSource.Watch> watches = new CopyOnWriteArrayList<>();
  /** Counts the changes of any rule in force here. */
  private final AtomicLong generation = new AtomicLong();
  /** How many watched keys' rules (or their absence) the source has not told yet. */
  private final AtomicInteger unknown = new AtomicInteger();
  /** Tasks waiting for every watched rule to be known; guarded by itself. */
  private final List<Runnable> waiters = new ArrayList<>();

  RuleWatches(RuleSource source, LiveRule.Parser<R> parser, String kind, ScheduledExecutorService scheduler,
      long waitNanos) {
    this.source = source;
    this.parser = parser;
    this.kind = kind;
    this.scheduler = scheduler;
    this.waitNanos = waitNanos;
  }

  /** Starts watching {@code key}, if not yet. */
  void watch(String key) {
    rules.computeIfAbsent(key, k -> {
      LiveRule<R> rule = new LiveRule<>(k, parser, generation::incrementAndGet);
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
            logger.warn("{} {} not read in {} ms: calls go without it until it arrives", kind, k,
                TimeUnit.NANOSECONDS.toMillis(waitNanos));
            known.run();
          }
        }, waitNanos, TimeUnit.NANOSECONDS);
      }
      return rule;
    });
  }

  /** The rule in force under {@code key}, or null (none, or not watched). */
  R rule(String key) {
    LiveRule<R> live = rules.get(key);
    return live == null ? null : live.rule();
  }

  /** Whether the source has told every watched key's rule (or that there is none). One volatile read. */
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

  /** Stops watching. */
  void close() {
    watches.forEach(RuleSource.Watch::close);
    watches.clear();
  }
}
