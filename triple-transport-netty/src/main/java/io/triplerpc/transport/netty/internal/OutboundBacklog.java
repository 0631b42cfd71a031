package io.triplerpc.transport.netty.internal;

/**
 * The message bytes of one connection that its peer has not taken yet: handed to the HTTP/2 encoder
 * and waiting for the peer's flow-control window, or for a socket the peer does not drain. A peer that
 * reads nothing would otherwise pin every message written for it. Past the limit the handler resets
 * the stream being written; if the limit is reached again before the peer has shown it reads (a
 * connection WINDOW_UPDATE, the socket draining, a message written whole), the peer reads nothing at
 * all and the connection goes away.
 * Event loop only.
 */
public final class OutboundBacklog {

  private final long limit;
  private long bytes;
  /** A stream was reset for the backlog and the peer has read nothing since. */
  private boolean resetWhileNotReading;
  private long streamsReset;

  /** @param limit bytes; 0 for no limit */
  public OutboundBacklog(long limit) {
    this.limit = limit;
  }

  /** {@code count} bytes went to the encoder. */
  public void queued(int count) {
    bytes += count;
  }

  /** {@code count} bytes reached the socket: the peer takes what it is sent. */
  public void sent(long count) {
    bytes -= count;
    if (count > 0) {
      resetWhileNotReading = false;
    }
  }

  /** The peer read: it opened its connection window, or the socket drained. */
  public void peerRead() {
    resetWhileNotReading = false;
  }

  /** {@code count} bytes were dropped with their stream. */
  public void dropped(long count) {
    bytes -= count;
  }

  /** Whether the backlog is past its limit. */
  public boolean over() {
    return limit > 0 && bytes > limit;
  }

  /**
   * The backlog is past its limit: whether to close the connection (a stream was reset for it before,
   * and the peer has read nothing since) rather than reset the stream being written. Counts the reset.
   */
  public boolean closeRatherThanReset() {
    if (resetWhileNotReading) {
      return true;
    }
    resetWhileNotReading = true;
    streamsReset++;
    return false;
  }

  public long bytes() {
    return bytes;
  }

  public long limit() {
    return limit;
  }

  /** Streams reset for the backlog so far. */
  public long streamsReset() {
    return streamsReset;
  }
}
