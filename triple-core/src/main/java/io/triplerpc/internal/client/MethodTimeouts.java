package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.MethodDescriptor;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code timeout} of a service config's method configs: a call of a method whose most specific config
 * has one gets it as its deadline, or keeps its own if that is sooner ("the minimum of the value specified
 * here and the value set by the application", service_config.proto). Sits above the retries, so that the
 * deadline covers every attempt.
 */
final class MethodTimeouts implements ClientCallFactory {

  private final ClientCallFactory delegate;
  /** Method configs by full method name and by service name; "" for every method. */
  private final Map<String, MethodConfig> configs;

  MethodTimeouts(ClientCallFactory delegate, Map<String, MethodConfig> configs) {
    this.delegate = delegate;
    this.configs = Map.copyOf(configs);
  }

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    MethodConfig config = MethodConfig.find(configs, method);
    long timeoutNanos = config == null ? 0 : config.timeoutNanos();
    if (timeoutNanos > 0 && (options.timeoutNanos() == 0 || timeoutNanos < options.timeoutNanos())) {
      return delegate.newCall(method, options.withTimeout(timeoutNanos, TimeUnit.NANOSECONDS));
    }
    return delegate.newCall(method, options);
  }
}
