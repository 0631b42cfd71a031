package io.triplerpc.transport.netty.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Outbound flow control of one stream, as gRPC's {@code isReady}: bytes queued for the socket and
 * not yet written, against a small high-water mark. Thread-safe: senders count up, the event loop
 * counts down as writes complete.
 */
public final class OutboundReadiness {

  /** Queued bytes at or above which the stream is not ready (gRPC's default, 32 KiB). */
  public static final int THRESHOLD = 32 * 1024;

  private final AtomicInteger pendingBytes = new AtomicInteger();

  /** {@code bytes} more were queued. */
  public void queued(int bytes) {
    pendingBytes.addAndGet(bytes);
  }

  /** {@code bytes} were written; returns whether that made the stream ready again. */
  public boolean sent(int bytes) {
    int before = pendingBytes.getAndAdd(-bytes);
    return before >= THRESHOLD && before - bytes < THRESHOLD;
  }

  public boolean isReady() {
    return pendingBytes.get() < THRESHOLD;
  }
}
