package io.triplerpc.registry.internal.rules;

import java.util.List;

/**
 * A condition rule whose conditions are compiled, ready to route ({@link ConditionCompiler}).
 *
 * @param header the rule's common fields
 * @param conditions the conditions, in the rule's order, never empty
 */
public record CompiledConditionRule(RuleHeader header, List<Condition> conditions) {

  public CompiledConditionRule {
    conditions = List.copyOf(conditions);
  }
}
