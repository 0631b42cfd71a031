package io.triplerpc;

/**
 * Sees calls start and end, with their status, duration and message sizes: the hook for metrics and
 * access logs ({@code TripleClient.Builder.callObserver}, {@code TripleServer.Builder.callObserver}). A
 * client reports each call and each attempt of it (a retried or hedged call makes several attempts, any
 * other call one); a server reports each call it received, served or not. Called on transport, service
 * and caller threads while calls run: an implementation must be quick and must not block; what it throws
 * is logged and dropped.
 */
public interface CallObserver {

  /** {@code call} started; only its start fields are set. */
  default void started(ObservedCall call) {}

  /** {@code call} ended; every field is set, and none changes after. */
  default void ended(ObservedCall call) {}
}
