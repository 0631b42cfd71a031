package io.triplerpc;

/**
 * The request observer a client streaming or bidi streaming proxy method returns: values sent on
 * it go to the server, and the call can be cancelled.
 *
 * @param <T> the request type
 */
public interface ClientCallStreamObserver<T> extends CallStreamObserver<T> {

  /**
   * Cancels the call: the server sees the cancellation (RST_STREAM) and the response observer gets
   * {@link Status#CANCELLED}. No effect once the call has ended. Never blocks.
   */
  void cancel(String message, Throwable cause);
}
