package io.triplerpc.transport.netty.internal;

/**
 * The message bytes of one connection that its peer has not taken yet: handed to the HTTP/2 encoder
 * and waiting for the peer's flow-control window, or for a socket the peer does not drain. A peer that
 * reads nothing would otherwise pin every message written for it. Past the limit the handler resets
 * the stream being written; if the limit is reached again before the peer has shown it reads (a
 * connection WINDOW_UPDATE, the socket draining, a message written whole), the peer reads nothing at
 * all and the connection goes away. From half the limit on the connection is congested, and its
 * streams report that they are not ready, until the backlog falls to a quarter of the limit.
 * Event loop only, but for {@link #congested()}.
 */
public final class OutboundBacklog {

  /** Growth since the last {@link #mark()} at which the watcher hears of it before the flush ends. */
  public static final long STEP = 1 << 20;

  /** Who hears of the backlog's changes that others act on; on the event loop. */
  public interface Watcher {

    /** The backlog fell back to a quarter of the limit after passing half. */
    void decongested();

    /** The backlog grew by {@link #STEP} or more since it was last {@link #mark() marked}. */
    void grew();
  }

  private static final Watcher NONE = new Watcher() {
    @Override
    public void decongested() {}

    @Override
    public void grew() {}
  };

  private final long limit;
  private final Watcher watcher;
  private long bytes;
  /** {@link #bytes} when last {@link #mark() marked}. */
  private long marked;
  /** Whether the backlog passed half the limit and has not fallen to a quarter since; read by any thread. */
  private volatile boolean congested;
  /** A stream was reset for the backlog and the peer has read nothing since. */
  private boolean resetWhileNotReading;
  private long streamsReset;

  /** @param limit bytes; 0 for no limit */
  public OutboundBacklog(long limit) {
    this(limit, NONE);
  }

  /**
   * @param limit bytes; 0 for no limit
   * @param watcher told when the backlog stops being congested, and when it grew by a step
   */
  public OutboundBacklog(long limit, Watcher watcher) {
    this.limit = limit;
    this.watcher = watcher;
  }

  /** {@code count} bytes went to the encoder. */
  public void queued(int count) {
    bytes += count;
    if (limit > 0 && bytes >= limit >> 1 && !congested) {
      congested = true;
    }
    if (bytes - marked >= STEP) {
      watcher.grew();
    }
  }

  /** The watcher took note of the backlog as it is now. */
  public void mark() {
    marked = bytes;
  }

  /** {@code count} bytes reached the socket: the peer takes what it is sent. */
  public void sent(long count) {
    bytes -= count;
    if (count > 0) {
      resetWhileNotReading = false;
    }
    decongest();
  }

  private void decongest() {
    if (congested && bytes <= limit >> 2) {
      congested = false;
      watcher.decongested();
    }
  }

  /** Whether streams should hold their messages back: the connection holds half its limit or more. Any thread. */
  public boolean congested() {
    return congested;
  }

  /** The peer read: it opened its connection window, or the socket drained. */
  public void peerRead() {
    resetWhileNotReading = false;
  }

  /** {@code count} bytes were dropped with their stream. */
  public void dropped(long count) {
    bytes -= count;
    decongest();
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
