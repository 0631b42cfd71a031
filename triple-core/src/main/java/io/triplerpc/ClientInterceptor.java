package io.triplerpc;

/**
 * Sees or changes every client call: wrap the call that {@code next} makes in a
 * {@link ForwardingClientCall}, and its listener in a {@link ForwardingClientCallListener}. Must be
 * thread-safe.
 */
@FunctionalInterface
public interface ClientInterceptor {

  <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next);
}
