package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Status;

/**
 * The client side of one HTTP/2 stream, {@link #start} first; none of its methods blocks: each queues a
 * command on the connection's write queue. {@link #start}, {@link #writeMessage} and {@link #halfClose}
 * come from the one thread driving the call, one at a time; {@link #request}, {@link #cancel} and
 * {@link #isReady} may come from any thread at any time (the deadline timer and the callback thread
 * cancel, a callback requests more), and implementations make them safe to call concurrently.
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
