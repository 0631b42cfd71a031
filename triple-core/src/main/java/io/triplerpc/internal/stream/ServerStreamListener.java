package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Status;

/** Events of a server stream, called on the event loop, in order; must not block. */
public interface ServerStreamListener {

  /** One request message (without its prefix); the listener owns {@code payload}. */
  void onMessage(ByteBuf payload, boolean compressed);

  /** The client ended its side of the stream. */
  void onHalfClose();

  /**
   * The stream ended abnormally: RST_STREAM from the client, the connection lost, or an unreadable
   * request ({@code status} says which). The last event.
   */
  void onCancel(Status status);

  /** The close went out; the last event. */
  void onComplete();

  /** {@link ServerStream#isReady()} turned true. */
  void onReady();
}
