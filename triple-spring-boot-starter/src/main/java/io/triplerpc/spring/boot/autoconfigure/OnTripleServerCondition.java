package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.spring.boot.internal.ServiceBeans;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Whether the application runs a server: {@code triple.server.enabled} when set, else whether a bean's
 * class implements a {@code @TripleService} interface (judged on bean definitions, as
 * {@code @ConditionalOnBean} judges, so after the application's own configuration).
 */
class OnTripleServerCondition extends SpringBootCondition implements ConfigurationCondition {

  @Override
  public ConfigurationPhase getConfigurationPhase() {
    return ConfigurationPhase.REGISTER_BEAN;
  }

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    String enabled = context.getEnvironment().getProperty("triple.server.enabled");
    if (enabled != null && !enabled.isBlank()) {
      return Boolean.parseBoolean(enabled.trim())
          ? ConditionOutcome.match("triple.server.enabled is true")
          : ConditionOutcome.noMatch("triple.server.enabled is false");
    }
    if (context.getBeanFactory() != null && ServiceBeans.anyDeclared(context.getBeanFactory())) {
      return ConditionOutcome.match("a bean implements a @TripleService interface");
    }
    return ConditionOutcome.noMatch("no bean's class implements a @TripleService interface and triple.server.enabled"
        + " is not set");
  }
}
