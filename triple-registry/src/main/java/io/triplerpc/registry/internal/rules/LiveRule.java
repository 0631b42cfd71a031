package io.triplerpc.registry.internal.rules;

import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rule in force under one key of a config center: each text the source delivers is parsed (and
 * compiled) once, off the call path; a text that does not parse is logged and ignored, and the last
 * good rule stays in force whole. A removed rule leaves none in force, as in Dubbo.
 *
 * <p>Calls read {@link #current} (one volatile read); the generation counts the changes, so that what
 * is derived from a rule (a filtered list of addresses) is cached per generation.
 *
 * @param <T> the compiled rule
 */
public final class LiveRule<T> implements Consumer<String> {

  private static final Logger logger = LoggerFactory.getLogger(LiveRule.class);

  /** A parser of one kind of rule. */
  @FunctionalInterface
  public interface Parser<T> {
    T parse(String text) throws RuleException;
  }

  /**
   * The rule in force and its generation, published together.
   *
   * @param rule the rule in force, or null for none
   * @param generation how many times the rule in force has changed; 0 before the first rule
   */
  public record State<T>(T rule, long generation) {}

  private final String key;
  private final Parser<T> parser;
  private final Runnable onChange;
  /** Written only by the source's notifying thread (calls to {@link #accept} never overlap). */
  private volatile State<T> state = new State<>(null, 0);
  /** The text last delivered, good or bad; a repeat is not parsed again. */
  private String lastText;

  /**
   * A rule under {@code key}, parsed by {@code parser}; {@code onChange} runs (on the source's thread)
   * after each change of the rule in force.
   */
  public LiveRule(String key, Parser<T> parser, Runnable onChange) {
    this.key = Objects.requireNonNull(key, "key");
    this.parser = Objects.requireNonNull(parser, "parser");
    this.onChange = Objects.requireNonNull(onChange, "onChange");
  }

  /** The rule in force and its generation. Never blocks, allocates nothing. */
  public State<T> current() {
    return state;
  }

  /** The rule in force, or null. */
  public T rule() {
    return state.rule();
  }

  /** Takes the source's new text for this key (null: the rule was removed). */
  @Override
  public void accept(String text) {
    if (text != null && text.equals(lastText)) {
      return;
    }
    lastText = text;
    T rule;
    if (text == null) {
      if (state.rule() == null) {
        return;
      }
      rule = null;
      logger.info("Rule {} removed", key);
    } else {
      try {
        rule = parser.parse(text);
      } catch (RuleException | RuntimeException e) {
        logger.warn("Rule {} ignored, {}: {}", key,
            state.rule() == null ? "no rule in force" : "the last good one stays in force", e.getMessage());
        return;
      }
      logger.info("Rule {} in force", key);
    }
    state = new State<>(rule, state.generation() + 1);
    onChange.run();
  }

  @Override
  public String toString() {
    return "LiveRule[" + key + ", generation " + state.generation() + "]";
  }
}
