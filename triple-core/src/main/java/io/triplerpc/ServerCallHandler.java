package io.triplerpc;

/** Starts the server side of a call; the end of a server interceptor chain. */
@FunctionalInterface
public interface ServerCallHandler<Q, R> {

  /** Starts {@code call} and returns the listener for its requests. Must not block. */
  ServerCall.Listener<Q> startCall(ServerCall<Q, R> call, Metadata headers);
}
