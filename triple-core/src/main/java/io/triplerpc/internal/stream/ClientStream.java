package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Status;

/**
 * The client side of one HTTP/2 stream. Methods may be called from any thread but not concurrently,
 * {@link #start} first; none blocks: each queues a command on the connection's write queue.
 */
public interface ClientStream {

  /**
   * Queues the request headers; the stream is created on the event loop. With {@code headersNow} they
   * go out at once (a streaming call, whose client may wait for the server before it sends); without,
   * with the first message, in the same write (a unary request follows its start at once).
   */
  void start(ClientStreamListener listener, boolean headersNow);

  /** Asks for {@code count} more messages; may be called before {@link #start}. */
  void request(int count);

  /**
   * Queues a framed message (prefix included); the stream owns {@code framed}. With
   * {@code endOfStream} it is the last one, and the data goes out at once.
   */
  void writeMessage(ByteBuf framed, boolean endOfStream);

  /** Queues the end of the request stream. */
  void halfClose();

  /** Resets the stream (RST_STREAM CANCEL) and closes the listener with {@code status}. */
  void cancel(Status status);

  /** Whether the bytes queued for sending are below the high-water mark. */
  boolean isReady();
}
