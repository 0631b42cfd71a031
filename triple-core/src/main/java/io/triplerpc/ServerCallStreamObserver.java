package io.triplerpc;

/**
 * The response observer a service method receives: it also tells whether the client has gone away
 * and lets the method choose the response compression.
 *
 * @param <T> the response type
 */
public interface ServerCallStreamObserver<T> extends CallStreamObserver<T> {

  /**
   * Whether the call was cancelled: the client cancelled, its deadline passed, or its connection
   * dropped. Values sent after that are dropped; {@code onNext} then throws a CANCELLED
   * {@link StatusException} unless an on-cancel handler is set.
   */
  boolean isCancelled();

  /** Sets a handler run once, on the call's executor, when the call is cancelled. */
  void setOnCancelHandler(Runnable onCancelHandler);

  /**
   * Compresses responses with {@code encoding} (such as {@code "gzip"}) if the client accepts it;
   * call before the first value.
   */
  void setCompression(String encoding);
}
