package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.triplerpc.Metadata;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The server side of one HTTP/2 stream. Methods may be called from any thread but not concurrently;
 * none blocks: each queues a command on the connection's write queue.
 */
public interface ServerStream {

  /** Asks for {@code count} more request messages. */
  void request(int count);

  /**
   * Queues the response headers; {@code responseEncoding} null for uncompressed responses. Without
   * {@code flush} they wait for the message or close that follows, to leave in one write.
   */
  void writeHeaders(Metadata headers, MessageEncoding responseEncoding, boolean flush);

  /** Uncompressed messages whose size is known before they are made, this large or larger, are {@link #admit}ted first. */
  int ADMIT_FROM = 32 * 1024;

  /**
   * A message of {@code framedSize} bytes (prefix included) is about to be made for this stream: whether
   * the server has room for it. If not, the stream has ended the call and the message should not be made;
   * if so, the next {@link #writeMessage} of that size counts as the one admitted, and {@link #withdraw}
   * takes the room back if it is not made after all.
   */
  default boolean admit(int framedSize) {
    return true;
  }

  /** The message {@link #admit} made room for will not be written. */
  default void withdraw(int framedSize) {}

  /** Queues a framed message (prefix included); the stream owns {@code framed}. */
  void writeMessage(ByteBuf framed, boolean flush);

  /**
   * Queues the trailers with {@code status} and ends the stream; as a trailers-only response if no
   * headers were sent. The listener then gets {@link ServerStreamListener#onComplete}.
   */
  void close(Status status, Metadata trailers);

  /**
   * Ends a call the server refused before any service ran ({@code status} says why): as {@link #close}
   * with no trailers, except that protocols with HTTP semantics answer with {@code httpStatus} (404 for a
   * method the server does not have, 405 for a GET of a method that is not idempotent).
   */
  default void closeRefused(Status status, int httpStatus) {
    close(status, new Metadata());
  }

  /** Resets the stream (RST_STREAM); the listener gets {@link ServerStreamListener#onCancel}. */
  void cancel(Status status);

  /** Whether the bytes queued for sending are below the high-water mark. */
  boolean isReady();

  /** The connection the stream belongs to. */
  PeerInfo peer();

  ByteBufAllocator alloc();

  /** A scheduler for the call's deadline; its tasks must be short. */
  ScheduledExecutorService scheduler();

  /** The time {@link #scheduler()} counts by, in nanoseconds from an arbitrary origin. */
  default long nanoTime() {
    return System.nanoTime();
  }

  /** The call's protocol, for observers: {@code grpc}, {@code grpc-web} or {@code connect}. */
  default String protocol() {
    return "grpc";
  }
}
