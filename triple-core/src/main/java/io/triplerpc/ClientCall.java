package io.triplerpc;

/**
 * One call from the client's side, the level interceptors work at. Proxies drive it; an interceptor
 * wraps it (see {@link ForwardingClientCall}) to see or change headers, messages and the outcome.
 *
 * <p>Threading: {@link #start} first, once; then the other methods may be called from any thread but
 * not concurrently. None of them blocks. The {@link Listener} is called one event at a time, in
 * order, on the call's executor (the calling thread itself for synchronous unary calls).
 *
 * @param <Q> the request type
 * @param <R> the response type
 */
public abstract class ClientCall<Q, R> {

  /**
   * Receives the events of a call: headers, then messages, then one {@link #onClose}. {@link #onReady}
   * may come at any time before the close.
   */
  public abstract static class Listener<R> {

    /** The server's response headers (without the reserved HTTP/2 and gRPC ones). */
    public void onHeaders(Metadata headers) {}

    /** One response message. */
    public void onMessage(R message) {}

    /** The call ended; the last event. */
    public void onClose(Status status, Metadata trailers) {}

    /** {@link ClientCall#isReady()} turned true. */
    public void onReady() {}
  }

  /** Starts the call: the request headers go out (the stream is created on the event loop). */
  public abstract void start(Listener<R> listener, Metadata headers);

  /** Asks for {@code count} more response messages to be delivered to the listener. */
  public abstract void request(int count);

  /**
   * Ends the call with {@link Status#CANCELLED} (the server sees RST_STREAM): no message is delivered
   * after it, and the listener's close reports the cancel, whatever the server sent meanwhile. No
   * effect once the listener was closed.
   */
  public abstract void cancel(String message, Throwable cause);

  /** No more requests will be sent. */
  public abstract void halfClose();

  /** Sends one request message. */
  public abstract void sendMessage(Q message);

  /** Whether a message sent now would go out without piling up in memory. */
  public boolean isReady() {
    return true;
  }

  /** Whether the following messages are compressed with the call's compression; on by default. */
  public void setMessageCompression(boolean enabled) {}
}
