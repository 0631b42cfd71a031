package io.triplerpc.registry.internal;

import io.triplerpc.registry.internal.rules.AddressPattern;
import io.triplerpc.registry.internal.rules.TagRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The admin endpoint's view of directories ({@code GET /directories}, see {@code Discovery}): each piece as JSON
 * values (maps in a fixed order, lists, strings, numbers), read from the directories' own fields without
 * changing them.
 */
final class DirectoryViews {

  private DirectoryViews() {}

  /**
   * One endpoint: {@code address}, {@code revision}, {@code weight} (its instance's), {@code effectiveWeight}
   * (what balancers use now: less while it warms up), {@code warmingUp}, {@code warmupShare} (effective over
   * instance weight), {@code ejected} (by outlier detection), {@code failedRecently} (UNAVAILABLE within the
   * last second), {@code connected} and {@code activeCalls}.
   */
  static Map<String, Object> endpoint(Endpoint e, int instanceWeight, boolean warmingUp) {
    Map<String, Object> described = new LinkedHashMap<>();
    int effective = e.weight;
    described.put("address", e.address());
    described.put("revision", e.group == null ? null : e.group.revision);
    described.put("weight", instanceWeight);
    described.put("effectiveWeight", effective);
    described.put("warmingUp", warmingUp);
    described.put("warmupShare", instanceWeight <= 0 ? 1.0 : Math.min(1.0, (double) effective / instanceWeight));
    described.put("ejected", e.isEjected());
    described.put("failedRecently", e.failedRecently());
    described.put("connected", e.hasActiveConnection());
    described.put("activeCalls", e.active());
    return described;
  }

  /** One service called: its export, the applications serving it, how many endpoints it can pick from. */
  static Map<String, Object> service(ServiceDirectory directory) {
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("service", directory.serviceName);
    described.put("version", directory.version);
    described.put("group", directory.group);
    described.put("applications", new ArrayList<>(new TreeSet<>(directory.applications())));
    described.put("endpoints", directory.size());
    described.put("tagRouting", directory.tagRouter != null);
    return described;
  }

  /** A tag rule in force: its key, {@code force}, and each tag's address patterns; null for none. */
  static Map<String, Object> tagRule(TagRule rule) {
    if (rule == null) {
      return null;
    }
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("key", rule.header().key());
    described.put("force", rule.header().force());
    described.put("runtime", rule.header().runtime());
    Map<String, Object> tags = new LinkedHashMap<>();
    for (TagRule.Tag tag : rule.tags()) {
      List<String> addresses = new ArrayList<>();
      for (AddressPattern address : tag.addresses()) {
        addresses.add(address.toString());
      }
      tags.put(tag.name(), addresses);
    }
    described.put("tags", tags);
    return described;
  }
}
