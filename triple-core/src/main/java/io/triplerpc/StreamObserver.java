package io.triplerpc;

/**
 * Receives a stream of values: any number of {@link #onNext} calls, then at most one of
 * {@link #onCompleted} or {@link #onError}.
 *
 * <p>Not thread-safe: callers must not call an observer from two threads at once. Triple calls the
 * observers it is given one call at a time, in order, on the call's executor.
 *
 * @param <T> the value type
 */
public interface StreamObserver<T> {

  /** Receives the next value. */
  void onNext(T value);

  /**
   * Ends the stream with an error. A {@link StatusException} chooses the status the peer sees; any
   * other throwable becomes {@link Status#UNKNOWN} with its message.
   */
  void onError(Throwable t);

  /** Ends the stream successfully. */
  void onCompleted();
}
