package io.triplerpc.transport.netty.internal;

import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;

/**
 * Sizes a connection's inbound flow-control windows from the bandwidth-delay product, as grpc-java
 * and grpc-go do: a PING goes out after a read that brought DATA, that read's DATA and every DATA byte
 * read until the ACK are counted, and when those bytes times two exceed the window (and the bandwidth
 * is the best seen yet) the window grows to that, up to a maximum. A fixed window caps a connection at
 * one window per round trip: 1 MiB per 100 ms is 10 MiB/s however fast the link.
 *
 * <p>The read that starts a measurement counts, as the frame that triggers grpc-java's and grpc-go's
 * PING does: on a connection held back by its window, the PING leaves with the WINDOW_UPDATE for the
 * bytes just read, and its ACK can come back ahead of the DATA that update releases, so the round trip
 * alone may show half a window however slow the link, and the window would never grow.
 *
 * <p>A measurement starts only after DATA was read, so a peer that polices PINGs (grpc-java's and Go's
 * servers forgive PINGs that follow the DATA they sent) sees one per round trip of its own data at
 * most; after a measurement that did not grow the window the next waits {@link #PAUSE_NANOS}, so a
 * connection of small calls pays a PING every 100 ms, not one per round trip. None once the window
 * is at its maximum. Event loop only.
 */
public final class BandwidthDelayWindow {

  /** The payload of measurement PINGs ("bdp-ping"), told apart from keepalive's and GOAWAY's. */
  public static final long PING_DATA = 0x6264702d70696e67L;
  /** Wait after a measurement that did not grow the window. */
  public static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final Ticker ticker;
  private final int maxWindow;
  private int window;
  private boolean measuring;
  /** DATA bytes of the current read, while no measurement runs. */
  private long bytesThisRead;
  private long pingSentNanos;
  private long bytesInRoundTrip;
  private long bestBytesPerSecond;
  private long pausedUntilNanos;

  /**
   * Windows of {@code initialWindow} bytes growing up to {@code maxWindow}; never, when that is not
   * larger.
   */
  public BandwidthDelayWindow(Ticker ticker, int initialWindow, int maxWindow) {
    this.ticker = ticker;
    this.window = initialWindow;
    this.maxWindow = Math.max(initialWindow, maxWindow);
    this.pausedUntilNanos = ticker.nanoTime();
  }

  /** The window each stream and the connection have now. */
  public int window() {
    return window;
  }

  /** {@code bytes} of DATA (padding included) were read. */
  public void dataRead(int bytes) {
    if (measuring) {
      bytesInRoundTrip += bytes;
    } else {
      bytesThisRead += bytes;
    }
  }

  /**
   * After every read: whether to send a PING of {@link #PING_DATA} now, which starts a measurement.
   */
  public boolean startMeasurement() {
    long read = bytesThisRead;
    bytesThisRead = 0;
    if (measuring || read == 0 || window >= maxWindow) {
      return false;
    }
    long now = ticker.nanoTime();
    if (now - pausedUntilNanos < 0) {
      return false;
    }
    measuring = true;
    pingSentNanos = now;
    bytesInRoundTrip = read;
    return true;
  }

  /**
   * The measurement's PING was answered: the new window for each stream and the connection, or 0 to
   * keep the one they have.
   */
  public int pingAnswered() {
    if (!measuring) {
      return 0;
    }
    measuring = false;
    long now = ticker.nanoTime();
    long elapsedNanos = Math.max(1, now - pingSentNanos);
    long bytesPerSecond = (long) (bytesInRoundTrip * (double) TimeUnit.SECONDS.toNanos(1) / elapsedNanos);
    long target = Math.min(2 * bytesInRoundTrip, maxWindow);
    if (target > window && bytesPerSecond > bestBytesPerSecond) {
      bestBytesPerSecond = bytesPerSecond;
      window = (int) target;
      return window;
    }
    pausedUntilNanos = now + PAUSE_NANOS;
    return 0;
  }
}
