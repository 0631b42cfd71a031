package io.triplerpc.registry.internal.rules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles condition rules, strictly: each condition in Apache Dubbo 3.3's syntax ({@code ConditionStateRouter})
 * or the whole rule is refused, with the condition and the part at fault named.
 *
 * <p>The syntax, as Dubbo reads it: {@code [when] => [then]}; each side {@code key=value,value & key!=value};
 * a {@code when} that is empty or {@code true} matches every call, a {@code then} that is empty or
 * {@code false} sends the calls nowhere, a condition without {@code =>} is all {@code then}. The text
 * {@code consumer.} and {@code provider.} is removed wherever it occurs, as Dubbo removes it. Values are
 * globs with one {@code *} ({@code 10.0.0.*}, {@code get*}), integer ranges {@code low~high} and
 * {@code ~high}, and in a {@code then} {@code $key}, the consumer's own value of {@code key}.
 *
 * <p>Stricter than Dubbo, which reads each of these somehow and routes by it: a key Triple cannot read
 * ({@link Condition.Field#CONSUMER_KEYS}, {@link Condition.Field#PROVIDER_KEYS}), {@code arguments[i]}
 * (a Triple consumer does not give its routing the call's arguments), an attachment key with a dot (Dubbo
 * reads only up to the dot), a key without a value, a separator with nothing after it, two separators in
 * a row, a second {@code =>}, a range whose bounds are not integers or are reversed, a {@code $key} in a
 * {@code when} (Dubbo compares it as text) or naming no consumer value. Thread-safe.
 */
public final class ConditionCompiler {

  /** Dubbo's tokens: separators, then a key or value. */
  private static final Pattern TOKEN = Pattern.compile("([&!=,]*)\\s*([^&!=,\\s]+)");
  private static final Pattern ATTACHMENT = Pattern.compile("attachments\\[([^\\[\\]]+)]");
  private static final Pattern RANGE = Pattern.compile("(\\d{1,10})?~(\\d{1,10})");

  private ConditionCompiler() {}

  /** Parses and compiles the condition rule {@code text}. */
  public static CompiledConditionRule parse(String text) throws RuleException {
    return compile(RuleParser.parseConditionRule(text));
  }

  /** Compiles each condition of {@code rule}, or says which cannot be. */
  public static CompiledConditionRule compile(ConditionRule rule) throws RuleException {
    List<Condition> conditions = new ArrayList<>(rule.conditions().size());
    for (int i = 0; i < rule.conditions().size(); i++) {
      String condition = rule.conditions().get(i);
      try {
        conditions.add(compile(condition));
      } catch (RuleException e) {
        throw new RuleException("conditions[" + i + "] '" + shorten(condition) + "': " + e.getMessage());
      }
    }
    return new CompiledConditionRule(rule.header(), conditions);
  }

  /** Compiles one condition {@code [when] => [then]}. */
  public static Condition compile(String condition) throws RuleException {
    String text = condition.replace("consumer.", "").replace("provider.", "");
    int arrow = text.indexOf("=>");
    String when = arrow < 0 ? "" : text.substring(0, arrow).trim();
    String then = arrow < 0 ? text.trim() : text.substring(arrow + 2).trim();
    if (then.contains("=>")) {
      throw new RuleException("a second '=>'");
    }
    List<Condition.Matcher> whenMatchers = when.isEmpty() || when.equals("true") ? List.of() : side(when, true);
    List<Condition.Matcher> thenMatchers = then.isEmpty() || then.equals("false") ? null : side(then, false);
    return new Condition(condition.trim(), whenMatchers, thenMatchers);
  }

  private static List<Condition.Matcher> side(String text, boolean when) throws RuleException {
    String where = when ? "when" : "then";
    Map<String, Values> keys = new LinkedHashMap<>();
    Values current = null;
    List<String> values = null;
    int end = 0;
    Matcher tokens = TOKEN.matcher(text);
    while (tokens.find()) {
      if (!text.substring(end, tokens.start()).isBlank()) {
        throw new RuleException(where + ": unexpected '" + text.substring(end, tokens.start()).trim() + "'");
      }
      end = tokens.end();
      String separator = tokens.group(1);
      String content = tokens.group(2);
      switch (separator) {
        case "", "&" -> {
          if (separator.isEmpty() && current != null) {
            throw new RuleException(where + ": expected '&' before '" + content + "'");
          }
          if (current != null && current.isEmpty()) {
            throw new RuleException(where + ": " + current.key + " has no value");
          }
          current = keys.get(content);
          if (current == null) {
            current = new Values(content, field(content, when));
            keys.put(content, current);
          }
          values = null;
        }
        case "=", "!=" -> {
          if (current == null) {
            throw new RuleException(where + ": '" + separator + content + "' follows no key");
          }
          values = separator.equals("=") ? current.matches : current.mismatches;
          values.add(content);
        }
        case "," -> {
          if (values == null) {
            throw new RuleException(where + ": ',' before '" + content + "' follows no value");
          }
          values.add(content);
        }
        default -> throw new RuleException(where + ": unexpected '" + separator + "' before '" + content + "'");
      }
    }
    if (!text.substring(end).isBlank()) {
      throw new RuleException(where + ": '" + text.substring(end).trim() + "' with nothing after it");
    }
    if (current != null && current.isEmpty()) {
      throw new RuleException(where + ": " + current.key + " has no value");
    }
    List<Condition.Matcher> matchers = new ArrayList<>(keys.size());
    for (Values v : keys.values()) {
      matchers.add(new Condition.Matcher(v.field, patterns(v.key, v.matches, when), patterns(v.key, v.mismatches, when)));
    }
    return matchers;
  }

  private static Condition.Field field(String key, boolean when) throws RuleException {
    String where = when ? "when" : "then";
    if (key.startsWith("arguments")) {
      throw new RuleException(where + ": " + key + ": a call's arguments are not matched by Triple consumers");
    }
    if (key.startsWith("attachments")) {
      if (!when) {
        throw new RuleException("then: " + key + ": attachments belong to a call, not an instance");
      }
      Matcher m = ATTACHMENT.matcher(key);
      if (!m.matches()) {
        throw new RuleException("when: " + key + ": expected attachments[<key>]");
      }
      String name = m.group(1);
      if (name.contains(".")) {
        throw new RuleException("when: " + key + ": Dubbo reads an attachment key only up to its first '.'");
      }
      return new Condition.Field(Condition.Field.Source.ATTACHMENT, name.toLowerCase(Locale.ROOT));
    }
    if (when) {
      if (key.equals("method") || key.equals("methods")) {
        return new Condition.Field(Condition.Field.Source.METHOD, "method");
      }
      if (Condition.Field.CONSUMER_KEYS.contains(key)) {
        return new Condition.Field(Condition.Field.Source.CONSUMER, key);
      }
      throw new RuleException("when: unknown key " + key + " (expected method, attachments[<key>] or one of "
          + Condition.Field.CONSUMER_KEYS + ")");
    }
    if (Condition.Field.PROVIDER_KEYS.contains(key)) {
      return new Condition.Field(Condition.Field.Source.PROVIDER, key);
    }
    throw new RuleException("then: unknown key " + key + " (expected one of " + Condition.Field.PROVIDER_KEYS + ")");
  }

  private static List<Condition.Pattern> patterns(String key, List<String> values, boolean when)
      throws RuleException {
    String where = when ? "when" : "then";
    List<Condition.Pattern> patterns = new ArrayList<>(values.size());
    for (String value : values) {
      if (value.contains("~")) {
        Matcher m = RANGE.matcher(value);
        if (!m.matches()) {
          throw new RuleException(where + ": " + key + ": range '" + value + "': expected <low>~<high> or ~<high>");
        }
        long low = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
        long high = Long.parseLong(m.group(2));
        if (high > Integer.MAX_VALUE || low > high) {
          throw new RuleException(where + ": " + key + ": range '" + value + "' is empty or out of range");
        }
        patterns.add(new Condition.Range(m.group(1) == null ? Long.MIN_VALUE : low, high));
      } else if (value.startsWith("$")) {
        if (when) {
          throw new RuleException("when: " + key + ": '" + value + "': a reference is read in a then only");
        }
        String referenced = value.substring(1);
        if (!Condition.Field.CONSUMER_KEYS.contains(referenced)) {
          throw new RuleException("then: " + key + ": '" + value + "' names no consumer value (expected one of "
              + Condition.Field.CONSUMER_KEYS + ")");
        }
        patterns.add(new Condition.Reference(referenced));
      } else {
        patterns.add(Condition.Glob.of(value));
      }
    }
    return patterns;
  }

  private static String shorten(String text) {
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }

  /** One key's values while a side is read. */
  private static final class Values {
    final String key;
    final Condition.Field field;
    final List<String> matches = new ArrayList<>();
    final List<String> mismatches = new ArrayList<>();

    Values(String key, Condition.Field field) {
      this.key = key;
      this.field = field;
    }

    boolean isEmpty() {
      return matches.isEmpty() && mismatches.isEmpty();
    }
  }
}
