package io.triplerpc.transport.netty.internal.server;

import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;

/**
 * Tells a rapid-reset attack (CVE-2023-44487) from a client that cancels calls, as Envoy does: a
 * RST_STREAM received while the server still works on the stream, less than {@link #LIFETIME_NANOS}
 * after the stream opened and before 90% of the deadline its call announced (grpc-timeout) had passed,
 * is premature; the connection goes once more than half of its streams were
 * reset prematurely, judged from its {@link #MIN_STREAMS}th stream on (or at that many premature resets
 * before). A client whose calls time out or are cancelled late, or who cancels the losers of hedged
 * calls (at most half its streams with two attempts), keeps its connection however many it resets; an
 * attacker's streams are nearly all reset at once. A count per time window would cut off the first and
 * not the second: at 2× overload, a client's deadlines reset thousands of streams a second. (A reset
 * at the call's own deadline is what the server would do itself then: exempting it opens nothing an
 * attacker could not have with tiny deadlines and no resets.)
 *
 * <p>Open times are kept in a ring indexed by stream id, without allocation: a stream reset after
 * {@link #RING} younger streams opened counts as late, which an attack, resetting at once, never is.
 * HTTP/2's client streams have odd ids, QUIC's client request streams ids that are multiples of four: the ring
 * is indexed by the id shifted right by one or two. Event loop only.
 */
public final class PrematureResets {

  /** A reset younger than this is premature (Envoy's default). */
  static final long LIFETIME_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** Streams a connection opens before the ratio is judged (Envoy's default). */
  static final int MIN_STREAMS = 500;
  private static final int RING = 1024;

  private final Ticker ticker;
  /** How far an id is shifted right for its slot: past the bits that every client stream id shares. */
  private final int idShift;
  private final long[] ids = new long[RING];
  /** Until when a reset of the stream in the slot is premature. */
  private final long[] prematureUntilNanos = new long[RING];
  private long streams;
  private long premature;
  /** Inside a read ({@link #readStarted}): the streams it opens share one clock reading. */
  private boolean reading;
  private boolean readTimed;
  private long readNanos;

  /** For HTTP/2's streams. */
  PrematureResets(Ticker ticker) {
    this(ticker, 1);
  }

  /** @param idShift 1 for HTTP/2's client stream ids (odd), 2 for QUIC's client-initiated bidirectional ones */
  public PrematureResets(Ticker ticker, int idShift) {
    this.ticker = ticker;
    this.idShift = idShift;
  }

  /**
   * Bytes from the client are being read: streams opened until {@link #readEnded} take the time of the
   * first of them, one clock reading for a burst of calls rather than one per call (a read takes
   * microseconds, and a second is what counts).
   */
  void readStarted() {
    reading = true;
    readTimed = false;
  }

  void readEnded() {
    reading = false;
  }

  public void opened(long streamId) {
    long now;
    if (!reading) {
      now = ticker.nanoTime();
    } else {
      if (!readTimed) {
        readNanos = ticker.nanoTime();
        readTimed = true;
      }
      now = readNanos;
    }
    int slot = slot(streamId);
    ids[slot] = streamId;
    prematureUntilNanos[slot] = now + LIFETIME_NANOS;
    streams++;
  }

  /** The stream {@link #opened} last announced a deadline {@code timeoutNanos} away. */
  void announcedTimeout(long streamId, long timeoutNanos) {
    int slot = slot(streamId);
    if (ids[slot] == streamId && timeoutNanos < LIFETIME_NANOS) {
      // Resets from 90% of the deadline on are the caller giving up on time (its clock started earlier).
      prematureUntilNanos[slot] -= LIFETIME_NANOS - timeoutNanos / 10 * 9;
    }
  }

  /**
   * A stream the server still works on was reset; true if the connection should go away.
   */
  public boolean reset(long streamId) {
    int slot = slot(streamId);
    if (ids[slot] != streamId || ticker.nanoTime() - prematureUntilNanos[slot] >= 0) {
      return false;
    }
    premature++;
    return streams < MIN_STREAMS ? premature >= MIN_STREAMS : premature * 2 > streams;
  }

  private int slot(long streamId) {
    return (int) (streamId >>> idShift) & (RING - 1);
  }

  public long streams() {
    return streams;
  }

  public long premature() {
    return premature;
  }
}
