package io.triplerpc;

/**
 * Sees or changes every server call: wrap {@code call} in a {@link ForwardingServerCall} and the
 * listener {@code next} returns in a {@link ForwardingServerCallListener}. Must be thread-safe.
 */
@FunctionalInterface
public interface ServerInterceptor {

  <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next);
}
