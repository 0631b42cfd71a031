package io.triplerpc.registry.internal.rules;

import java.util.List;

/**
 * A condition rule ({@code <application>.condition-router} or
 * {@code <service>:<version>:<group>.condition-router}) as written: its conditions, each
 * {@code [when] => [then]} in Dubbo's syntax, in the rule's order.
 *
 * @param header the rule's common fields; {@code scope} is {@code application} or {@code service}
 * @param conditions the conditions, never empty, none blank
 */
public record ConditionRule(RuleHeader header, List<String> conditions) {

  public ConditionRule {
    conditions = List.copyOf(conditions);
  }
}
