package io.triplerpc.internal.descriptor;

/** How a Java method of a service interface carries its call. */
public enum CallShape {
  /** {@code R m(Q)}. */
  BLOCKING_UNARY,
  /** {@code CompletableFuture<R> m(Q)}. */
  FUTURE_UNARY,
  /** {@code void m(Q, StreamObserver<R>)}. */
  SERVER_STREAMING,
  /** {@code StreamObserver<Q> m(StreamObserver<R>)}, client or bidi streaming. */
  REQUEST_STREAMING
}
