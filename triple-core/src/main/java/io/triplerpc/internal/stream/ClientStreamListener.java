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

  /**
   * The stream ended and the server never processed it: it never left this client, the server
   * refused it (RST_STREAM REFUSED_STREAM), or the server's GOAWAY named an earlier last stream. Nothing
   * of it reached a service, so the call may go again on another stream. The last event, instead of
   * {@link #onClose}; by default, a close with {@code status}.
   */
  default void onUnprocessed(Status status) {
    onClose(status, new Metadata());
  }

  /** {@link ClientStream#isReady()} turned true. */
  void onReady();
}
