package io.triplerpc.registry.internal.rules;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Strict parsers of Dubbo 3.3's rules in YAML. A rule is taken whole or not at all: a field Triple does
 * not know, a value of the wrong type, an empty list where a rule needs entries, a second YAML document
 * or a repeated key each reject the whole rule with a message that names the field. Where Dubbo itself
 * reads a field leniently ({@code force: yes} is false to Dubbo), this parser refuses it, so that an
 * operator's typo is reported rather than half-obeyed. Thread-safe.
 */
public final class RuleParser {

  /** The longest rule text taken: far above any real rule, well under ZooKeeper's 1 MiB znode. */
  public static final int MAX_RULE_CHARS = 512 * 1024;

  private static final Set<String> HEADER_FIELDS = Set.of(
      "key", "scope", "configVersion", "enabled", "force", "runtime", "priority", "valid", "dynamic");
  private static final Set<String> TAG_RULE_FIELDS = union(HEADER_FIELDS, "tags");
  private static final Set<String> TAG_FIELDS = Set.of("name", "addresses");
  private static final Set<String> CONDITION_RULE_FIELDS = union(HEADER_FIELDS, "conditions");
  private static final Set<String> OVERRIDE_RULE_FIELDS = union(HEADER_FIELDS, "configs");
  private static final Set<String> ITEM_FIELDS = Set.of(
      "type", "enabled", "addresses", "providerAddresses", "services", "applications", "parameters", "side");
  private static final Set<String> SCOPES = Set.of("application", "service");

  /** The parameters Triple applies, each with what makes its value one it can apply (null: fine). */
  private static final Map<String, ValueCheck> PARAMETER_CHECKS = Map.of(
      "timeout", text -> intIn(text, 1, Integer.MAX_VALUE) ? null : "expected milliseconds, a positive integer",
      "retries", text -> intIn(text, 0, 1000) ? null : "expected an integer from 0 to 1000",
      "weight", text -> intIn(text, 0, Integer.MAX_VALUE) ? null : "expected an integer of at least 0",
      "disabled", text -> text.equals("true") || text.equals("false") ? null : "expected true or false");

  /** Says what is wrong with a parameter's value, or null. */
  @FunctionalInterface
  private interface ValueCheck {
    String check(String text);
  }

  private static boolean intIn(String text, int min, int max) {
    if (text.isEmpty() || text.length() > 10 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return false;
    }
    long value = Long.parseLong(text);
    return value >= min && value <= max;
  }

  private static final ObjectReader YAML = new YAMLMapper()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .readerFor(JsonNode.class);

  private RuleParser() {}

  /** Parses a tag rule ({@code <application>.tag-router}). */
  public static TagRule parseTagRule(String text) throws RuleException {
    JsonNode root = read(text, TAG_RULE_FIELDS);
    RuleHeader header = header(root);
    List<JsonNode> tagNodes = nonEmptyList(root, "tags");
    List<TagRule.Tag> tags = new ArrayList<>(tagNodes.size());
    Set<String> names = new HashSet<>();
    for (int i = 0; i < tagNodes.size(); i++) {
      String where = "tags[" + i + "]";
      if (tagNodes.get(i).isObject() && tagNodes.get(i).has("match")) {
        throw new RuleException(where + ".match: matching instances by parameter is not supported");
      }
      JsonNode tag = mapping(tagNodes.get(i), where, TAG_FIELDS);
      String name = requiredText(tag, "name", where);
      if (!names.add(name)) {
        throw new RuleException(where + ": tag '" + name + "' named twice");
      }
      tags.add(new TagRule.Tag(name, addresses(tag, "addresses", where, true)));
    }
    return new TagRule(header, tags);
  }

  /** Parses a condition rule ({@code ....condition-router}); the conditions' syntax is checked by the router. */
  public static ConditionRule parseConditionRule(String text) throws RuleException {
    JsonNode root = read(text, CONDITION_RULE_FIELDS);
    RuleHeader header = header(root);
    if ("v3.1".equals(header.configVersion())) {
      throw new RuleException("configVersion v3.1 (multiple destinations) is not supported");
    }
    List<JsonNode> nodes = nonEmptyList(root, "conditions");
    List<String> conditions = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      JsonNode node = nodes.get(i);
      if (!node.isTextual() || node.asText().isBlank()) {
        throw new RuleException("conditions[" + i + "]: expected a condition 'when => then', got " + node);
      }
      conditions.add(node.asText().trim());
    }
    return new ConditionRule(header, conditions);
  }

  /** Parses a dynamic configuration ({@code ....configurators}). */
  public static OverrideRule parseOverrideRule(String text) throws RuleException {
    JsonNode root = read(text, OVERRIDE_RULE_FIELDS);
    RuleHeader header = header(root);
    List<JsonNode> nodes = nonEmptyList(root, "configs");
    List<OverrideRule.Item> items = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      String where = "configs[" + i + "]";
      JsonNode item = nodes.get(i);
      if (item.isObject() && item.has("match")) {
        throw new RuleException(where + ".match: matching by condition is not supported");
      }
      mapping(item, where, ITEM_FIELDS);
      OverrideRule.Side side = null;
      String sideText = optionalText(item, "side", where);
      if (sideText != null) {
        switch (sideText) {
          case "consumer" -> side = OverrideRule.Side.CONSUMER;
          case "provider" -> side = OverrideRule.Side.PROVIDER;
          default -> throw new RuleException(where + ".side: expected consumer or provider, got '" + sideText + "'");
        }
      }
      String type = optionalText(item, "type", where);
      // As Dubbo's ConfigParser: an item of no type (or "general") follows the rule's enabled, another its own.
      boolean own = bool(item, "enabled", true, where);
      boolean enabled = type == null || type.equals("general") ? header.enabled() : own;
      items.add(new OverrideRule.Item(side, enabled,
          addresses(item, "addresses", where, false), addresses(item, "providerAddresses", where, false),
          texts(item, "services", where), texts(item, "applications", where), parameters(item, where)));
    }
    return new OverrideRule(header, items);
  }

  private static JsonNode read(String text, Set<String> fields) throws RuleException {
    if (text.length() > MAX_RULE_CHARS) {
      throw new RuleException("rule of " + text.length() + " characters, over the limit of " + MAX_RULE_CHARS);
    }
    if (text.isBlank()) {
      throw new RuleException("empty rule");
    }
    JsonNode root;
    try {
      root = YAML.readValue(text);
    } catch (JacksonException e) {
      throw new RuleException("not YAML: " + e.getOriginalMessage(), e);
    }
    return mapping(root, "the rule", fields);
  }

  private static RuleHeader header(JsonNode root) throws RuleException {
    String scope = optionalText(root, "scope", "");
    if (scope != null && !SCOPES.contains(scope)) {
      throw new RuleException("scope: expected application or service, got '" + scope + "'");
    }
    String version = optionalText(root, "configVersion", "");
    if (version != null && !version.matches("v\\d+\\.\\d+")) {
      throw new RuleException("configVersion: expected v<major>.<minor>, got '" + version + "'");
    }
    JsonNode priority = root.get("priority");
    if (priority != null && !priority.isInt()) {
      throw new RuleException("priority: expected an integer, got " + priority);
    }
    // As in Dubbo, a rule marked not valid is a rule not enabled.
    boolean enabled = bool(root, "enabled", true, "") & bool(root, "valid", true, "");
    bool(root, "dynamic", false, "");
    return new RuleHeader(optionalText(root, "key", ""), scope, version, enabled,
        bool(root, "force", false, ""), bool(root, "runtime", true, ""),
        priority == null ? 0 : priority.intValue());
  }

  private static JsonNode mapping(JsonNode node, String where, Set<String> fields) throws RuleException {
    if (node == null || !node.isObject()) {
      throw new RuleException(where + ": expected a mapping, got " + describe(node));
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!fields.contains(name)) {
        throw new RuleException(prefix(where) + name + ": unknown field");
      }
    }
    return node;
  }

  private static List<JsonNode> nonEmptyList(JsonNode node, String field) throws RuleException {
    JsonNode list = node.get(field);
    if (list == null || list.isNull()) {
      throw new RuleException(field + ": missing");
    }
    if (!list.isArray() || list.isEmpty()) {
      throw new RuleException(field + ": expected a list of at least one entry, got " + describe(list));
    }
    List<JsonNode> entries = new ArrayList<>(list.size());
    list.forEach(entries::add);
    return entries;
  }

  private static List<AddressPattern> addresses(JsonNode node, String field, String where, boolean required)
      throws RuleException {
    List<String> texts = texts(node, field, where);
    if (required && texts.isEmpty()) {
      throw new RuleException(prefix(where) + field + ": expected a list of at least one address");
    }
    List<AddressPattern> addresses = new ArrayList<>(texts.size());
    for (String text : texts) {
      try {
        addresses.add(AddressPattern.parse(text));
      } catch (RuleException e) {
        throw new RuleException(prefix(where) + field + ": " + e.getMessage());
      }
    }
    return addresses;
  }

  /** A list of scalars as text; empty if absent. */
  private static List<String> texts(JsonNode node, String field, String where) throws RuleException {
    JsonNode list = node.get(field);
    if (list == null || list.isNull()) {
      return List.of();
    }
    if (!list.isArray()) {
      throw new RuleException(prefix(where) + field + ": expected a list, got " + describe(list));
    }
    List<String> texts = new ArrayList<>(list.size());
    for (JsonNode entry : list) {
      if (!entry.isValueNode() || entry.isNull() || entry.asText().isBlank()) {
        throw new RuleException(prefix(where) + field + ": expected text entries, got " + describe(entry));
      }
      texts.add(entry.asText().trim());
    }
    return texts;
  }

  private static Map<String, String> parameters(JsonNode item, String where) throws RuleException {
    JsonNode node = item.get("parameters");
    if (node == null || !node.isObject() || node.isEmpty()) {
      throw new RuleException(where + ".parameters: expected a mapping of at least one parameter, got "
          + describe(node));
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      JsonNode value = entry.getValue();
      if (!value.isValueNode() || value.isNull()) {
        throw new RuleException(where + ".parameters." + entry.getKey() + ": expected a value, got " + describe(value));
      }
      String text = value.asText().trim();
      String problem = PARAMETER_CHECKS.containsKey(entry.getKey()) ? PARAMETER_CHECKS.get(entry.getKey()).check(text) : null;
      if (problem != null) {
        throw new RuleException(where + ".parameters." + entry.getKey() + ": " + problem + ", got '" + text + "'");
      }
      parameters.put(entry.getKey(), text);
    }
    return parameters;
  }

  private static String requiredText(JsonNode node, String field, String where) throws RuleException {
    String text = optionalText(node, field, where);
    if (text == null || text.isBlank()) {
      throw new RuleException(prefix(where) + field + ": missing");
    }
    return text;
  }

  private static String optionalText(JsonNode node, String field, String where) throws RuleException {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isValueNode()) {
      throw new RuleException(prefix(where) + field + ": expected text, got " + describe(value));
    }
    return value.asText().trim();
  }

  private static boolean bool(JsonNode node, String field, boolean absent, String where) throws RuleException {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return absent;
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    String text = value.isTextual() ? value.asText().trim().toLowerCase(Locale.ROOT) : "";
    if (text.equals("true") || text.equals("false")) {
      return text.equals("true");
    }
    throw new RuleException(prefix(where) + field + ": expected true or false, got " + describe(value));
  }

  private static String prefix(String where) {
    return where.isEmpty() || where.equals("the rule") ? "" : where + ".";
  }

  private static String describe(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "nothing";
    }
    String text = node.toString();
    return text.length() > 60 ? text.substring(0, 60) + "..." : text;
  }

  private static Set<String> union(Set<String> fields, String more) {
    Set<String> all = new HashSet<>(fields);
    all.add(more);
    return Set.copyOf(all);
  }
}
