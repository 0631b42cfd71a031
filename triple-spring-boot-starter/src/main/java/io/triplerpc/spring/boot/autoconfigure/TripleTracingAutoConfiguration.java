package io.triplerpc.spring.boot.autoconfigure;

import io.opentelemetry.api.OpenTelemetry;
import io.triplerpc.opentelemetry.TripleTracing;
import io.triplerpc.spring.boot.TripleClientCustomizer;
import io.triplerpc.spring.boot.TripleServerCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * triple-opentelemetry's tracing through the application's {@link OpenTelemetry} bean: a server span per
 * call served and a client span per call made through a {@code @TripleReference}, the trace context in the
 * headers. {@code triple.tracing.enabled=false} turns it off; a {@link TripleTracing} bean of the
 * application's own (message events off, MDC on) replaces the default one.
 */
// Boot 4's OpenTelemetry SDK auto-configuration, then Boot 3's (this class is also triple-spring-boot3-starter's);
// a name absent from the class path orders nothing.
@AutoConfiguration(afterName = {
    "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.opentelemetry.OpenTelemetryAutoConfiguration"})
@ConditionalOnClass({TripleTracing.class, OpenTelemetry.class})
@ConditionalOnBean(OpenTelemetry.class)
@ConditionalOnBooleanProperty(name = "triple.tracing.enabled", matchIfMissing = true)
public class TripleTracingAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  TripleTracing tripleTracing(OpenTelemetry openTelemetry) {
    return TripleTracing.create(openTelemetry);
  }

  /** First, so that the interceptors other customizers add run inside the server span. */
  @Bean
  @Order(Ordered.HIGHEST_PRECEDENCE)
  TripleServerCustomizer tripleServerTracing(TripleTracing tracing) {
    return server -> server.intercept(tracing.serverInterceptor());
  }

  /** First, so that the client span covers the interceptors other customizers add. */
  @Bean
  @Order(Ordered.HIGHEST_PRECEDENCE)
  TripleClientCustomizer tripleClientTracing(TripleTracing tracing) {
    return (target, client) -> client.intercept(
        target.isEmpty() ? tracing.clientInterceptor() : tracing.clientInterceptor(target));
  }
}
