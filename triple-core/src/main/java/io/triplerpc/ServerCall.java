package io.triplerpc;

import java.net.SocketAddress;

/**
 * One call from the server's side, the level server interceptors work at.
 *
 * <p>Threading: the methods may be called from any thread but not concurrently; none of them
 * blocks. The {@link Listener} is called one event at a time, in order, on the call's executor.
 *
 * @param <Q> the request type
 * @param <R> the response type
 */
public abstract class ServerCall<Q, R> {

  /**
   * Receives the events of a call: messages, then a half-close, then {@link #onComplete} or
   * {@link #onCancel}.
   */
  public abstract static class Listener<Q> {

    /** One request message. */
    public void onMessage(Q message) {}

    /** The client will send no more messages. */
    public void onHalfClose() {}

    /** The call ended before the server closed it: client cancel, deadline, or lost connection. */
    public void onCancel() {}

    /** The server's close went out; the last event. */
    public void onComplete() {}

    /** {@link ServerCall#isReady()} turned true. */
    public void onReady() {}
  }

  /** Asks for {@code count} more request messages to be delivered to the listener. */
  public abstract void request(int count);

  /** Sends the response headers; at most once, before the first message. */
  public abstract void sendHeaders(Metadata headers);

  /** Sends one response message (sending the headers first if needed). */
  public abstract void sendMessage(R message);

  /** Ends the call with {@code status} and {@code trailers}; later calls are ignored. */
  public abstract void close(Status status, Metadata trailers);

  /** Whether the call was cancelled. */
  public abstract boolean isCancelled();

  /** Whether a message sent now would go out without piling up in memory. */
  public boolean isReady() {
    return true;
  }

  /** Whether the following messages are compressed with the call's compression; on by default. */
  public void setMessageCompression(boolean enabled) {}

  /** Compresses responses with {@code encoding} if the client accepts it; before the headers. */
  public void setCompression(String encoding) {}

  /** The method being called. */
  public abstract MethodDescriptor<Q, R> method();

  /** The client's address, or null when unknown. */
  public SocketAddress remoteAddress() {
    return null;
  }

  /**
   * The protocol the call came in: {@code grpc}, {@code grpc-web} or {@code connect} (which curl and
   * browsers' JSON calls speak); {@code grpc} unless the server says otherwise.
   */
  public String protocol() {
    return "grpc";
  }
}
