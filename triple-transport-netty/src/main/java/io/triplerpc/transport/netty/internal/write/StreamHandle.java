package io.triplerpc.transport.netty.internal.write;

/**
 * What a command needs to know of the stream it is for; implemented by client and server streams so
 * both sides share the commands without a package cycle. Called on the event loop only; except that
 * once the event loop has terminated, {@link WriteQueue} fails what it still holds on Netty's global
 * executor (the loop owns nothing any more by then).
 */
public interface StreamHandle {

  /** The HTTP/2 stream id, or -1 before the stream is created. */
  int id();

  /** {@code bytes} of this stream's DATA were written to the socket; for outbound readiness. */
  void onDataSent(int bytes);

  /**
   * A command for this stream failed to be written (the connection dropped, say): close the stream
   * with an error. Called on the event loop; idempotent.
   */
  void writeFailed(Throwable cause);

  /**
   * The command that would have created this stream failed without running (the connection closed
   * first): nothing of the stream left this side. By default, a failed write.
   */
  default void neverSent(Throwable cause) {
    writeFailed(cause);
  }

  /**
   * The command that created this stream was written to the socket whole: its HEADERS may have reached
   * the peer. Until then, a failed write means the peer cannot have processed the stream.
   */
  default void headersWritten() {}
}
