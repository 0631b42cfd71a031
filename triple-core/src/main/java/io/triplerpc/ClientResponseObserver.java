package io.triplerpc;

/**
 * A response observer that also gets hold of the call's request side before the call starts: to
 * cancel a server streaming call, or to send client-streaming requests only when ready.
 *
 * @param <Q> the request type
 * @param <R> the response type
 */
public interface ClientResponseObserver<Q, R> extends StreamObserver<R> {

  /** Called once, before the call starts, on the thread that makes the call. */
  void beforeStart(ClientCallStreamObserver<Q> requestStream);
}
