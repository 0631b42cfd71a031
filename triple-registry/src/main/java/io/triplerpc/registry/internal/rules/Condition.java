package io.triplerpc.registry.internal.rules;

import java.util.List;

/**
 * One compiled condition of a condition rule, {@code when => then} as Apache Dubbo 3.3's
 * {@code ConditionStateRouter} reads it: a call whose consumer-side values match every matcher of
 * {@code when} goes to the instances whose provider-side values match every matcher of {@code then}.
 * Immutable and thread-safe; matching allocates nothing.
 */
public final class Condition {

  /** The consumer-side values of one call ({@code when}). */
  public interface Call {

    /** The method called. */
    String method();

    /** The call's attachment (request header) {@code key}, lower case; null if it has none. */
    String attachment(String key);

    /** The consumer's own value of {@code key} ({@link Field#CONSUMER_KEYS}); null if it has none. */
    String consumer(String key);
  }

  /** The provider-side values of one instance ({@code then}). */
  public interface Instance {

    /** The instance's value of {@code key} ({@link Field#PROVIDER_KEYS}); null if it has none. */
    String provider(String key);
  }

  private final String text;
  /** All must match; empty matches every call. */
  private final List<Matcher> when;
  /** All must match; null when the condition sends its calls nowhere ({@code => false} or nothing). */
  private final List<Matcher> then;
  private final boolean readsAttachments;

  Condition(String text, List<Matcher> when, List<Matcher> then) {
    this.text = text;
    this.when = List.copyOf(when);
    this.then = then == null ? null : List.copyOf(then);
    this.readsAttachments = this.when.stream().anyMatch(m -> m.field().source() == Field.Source.ATTACHMENT);
  }

  /** Whether {@code call} is one this condition routes. */
  public boolean matchesWhen(Call call) {
    for (int i = 0, n = when.size(); i < n; i++) {
      Matcher m = when.get(i);
      if (!m.matches(m.field().valueOf(call), true, call)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code instance} may take the calls this condition routes, for the consumer {@code consumer}. */
  public boolean matchesThen(Instance instance, Call consumer) {
    if (then == null) {
      return false;
    }
    for (int i = 0, n = then.size(); i < n; i++) {
      Matcher m = then.get(i);
      if (!m.matches(instance.provider(m.field().name()), false, consumer)) {
        return false;
      }
    }
    return true;
  }

  /** Whether the calls this condition routes go nowhere ({@code then} empty or {@code false}). */
  public boolean blocks() {
    return then == null;
  }

  /** Whether {@code when} reads values that vary per call beyond the method (attachments). */
  public boolean readsCallValues() {
    return readsAttachments;
  }

  @Override
  public String toString() {
    return text;
  }

  /** What a condition's key reads. */
  public record Field(Source source, String name) {

    /** Keys of the consumer a {@code when} may compare, besides {@code method} and {@code attachments[k]}. */
    public static final List<String> CONSUMER_KEYS = List.of("host", "application", "interface", "version", "group");
    /** Keys of an instance a {@code then} may compare. */
    public static final List<String> PROVIDER_KEYS = List.of(
        "host", "port", "address", "protocol", "application", "interface", "path", "version", "group",
        "serialization");

    /** Where a value comes from. */
    public enum Source { METHOD, ATTACHMENT, CONSUMER, PROVIDER }

    String valueOf(Call call) {
      return switch (source) {
        case METHOD -> call.method();
        case ATTACHMENT -> call.attachment(name);
        case CONSUMER -> call.consumer(name);
        case PROVIDER -> throw new IllegalStateException("a provider's value in a when: " + name);
      };
    }
  }

  /**
   * The values a key must have ({@code key=a,b}) and must not have ({@code key!=c}), as Dubbo's
   * {@code AbstractConditionMatcher}: no value never matches; a value matching a mismatch never matches;
   * else it matches if there are no matches or it matches one.
   */
  record Matcher(Field field, List<Pattern> matches, List<Pattern> mismatches) {

    boolean matches(String value, boolean inWhen, Call consumer) {
      if (value == null) {
        return false;
      }
      for (int i = 0, n = mismatches.size(); i < n; i++) {
        if (mismatches.get(i).matches(value, inWhen, consumer)) {
          return false;
        }
      }
      if (matches.isEmpty()) {
        return true;
      }
      for (int i = 0, n = matches.size(); i < n; i++) {
        if (matches.get(i).matches(value, inWhen, consumer)) {
          return true;
        }
      }
      return false;
    }
  }

  /** One value of a matcher: a glob, a range of integers, or a reference to a consumer's value. */
  interface Pattern {

    boolean matches(String value, boolean inWhen, Call consumer);

    /** Dubbo's glob ({@code UrlUtils.isMatchGlobPattern}): one {@code *}, the last, splits a prefix and a suffix. */
    static boolean glob(String pattern, String value) {
      if (pattern == null || pattern.isEmpty()) {
        return value.isEmpty();
      }
      if (pattern.equals("*")) {
        return true;
      }
      if (value.isEmpty()) {
        return false;
      }
      int star = pattern.lastIndexOf('*');
      if (star < 0) {
        return value.equals(pattern);
      }
      if (star == pattern.length() - 1) {
        return value.startsWith(pattern.substring(0, star));
      }
      if (star == 0) {
        return value.endsWith(pattern.substring(1));
      }
      return value.startsWith(pattern.substring(0, star)) && value.endsWith(pattern.substring(star + 1));
    }
  }

  /** A glob with no reference: {@code 10.0.0.*}, {@code get*}, {@code shop}. */
  record Glob(String pattern, String prefix, String suffix, boolean hasStar) implements Pattern {

    static Glob of(String pattern) {
      int star = pattern.lastIndexOf('*');
      return star < 0 ? new Glob(pattern, pattern, "", false)
          : new Glob(pattern, pattern.substring(0, star), pattern.substring(star + 1), true);
    }

    @Override
    public boolean matches(String value, boolean inWhen, Call consumer) {
      if (!hasStar) {
        return value.equals(pattern);
      }
      if (pattern.length() == 1) {
        return true;
      }
      // As Dubbo: a star at either end, or inside; an empty value matches only "*".
      return !value.isEmpty() && value.startsWith(prefix) && value.endsWith(suffix);
    }
  }

  /**
   * {@code low~high} or {@code ~high}: an integer value within the bounds, as Dubbo's {@code RangeValuePattern}
   * reads it: a value that is not all digits counts as 0, one too large for an int matches in a {@code then}
   * and not in a {@code when}.
   */
  record Range(long low, long high) implements Pattern {

    @Override
    public boolean matches(String value, boolean inWhen, Call consumer) {
      long parsed = 0;
      boolean digits = !value.isEmpty();
      for (int i = 0; i < value.length() && digits; i++) {
        char c = value.charAt(i);
        digits = c >= '0' && c <= '9';
        parsed = Math.min(parsed * 10 + (c - '0'), 1L << 40);
      }
      if (!digits) {
        parsed = 0;
      } else if (parsed > Integer.MAX_VALUE) {
        return !inWhen;
      }
      return parsed >= low && parsed <= high;
    }
  }

  /** {@code $key} in a {@code then}: the consumer's own value of {@code key}, read as a glob. */
  record Reference(String key) implements Pattern {

    @Override
    public boolean matches(String value, boolean inWhen, Call consumer) {
      return Pattern.glob(consumer.consumer(key), value);
    }
  }
}
