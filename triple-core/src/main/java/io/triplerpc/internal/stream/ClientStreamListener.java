package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.MessageEncoding;

/** Events of a client stream, called on the event loop, in order; must not block. */
public interface ClientStreamListener {

  /** The response headers; {@code responseEncoding} is null for uncompressed responses. */
  void onHeaders(Metadata headers, MessageEncoding responseEncoding);

  /** One message (without its prefix); the listener owns {@code payload}. */
  void onMessage(ByteBuf payload, boolean compressed);

  /**
   * Every message of one read (or of one grant of demand) has been passed to {@link #onMessage}: a
   * listener that queued them without waking anyone may hand them over now, all at once. Follows
   * one or more {@code onMessage}.
   */
  default void onMessagesDelivered() {}

  /** The stream ended; the last event. */
  void onClose(Status status, Metadata trailers);

  /** {@link ClientStream#isReady()} turned true. */
  void onReady();
}
