package io.triplerpc.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A {@link RuleSource} in memory, for tests without a config center: {@link #put} and {@link #remove}
 * deliver the change to the key's watchers before they return, on the caller's thread.
 */
final class MapRuleSource implements RuleSource {

  private final Map<String, String> rules = new HashMap<>();
  private final Map<String, List<Consumer<String>>> watchers = new HashMap<>();

  synchronized void put(String key, String text) {
    rules.put(key, text);
    watchers.getOrDefault(key, List.of()).forEach(listener -> listener.accept(text));
  }

  synchronized void remove(String key) {
    rules.remove(key);
    watchers.getOrDefault(key, List.of()).forEach(listener -> listener.accept(null));
  }

  @Override
  public synchronized Watch watch(String key, Consumer<String> listener) {
    watchers.computeIfAbsent(key, k -> new ArrayList<>()).add(listener);
    listener.accept(rules.get(key));
    return () -> {
      synchronized (MapRuleSource.this) {
        watchers.get(key).remove(listener);
      }
    };
  }

  @Override
  public void close() {}
}
