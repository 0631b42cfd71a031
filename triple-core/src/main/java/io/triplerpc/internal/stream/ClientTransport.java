package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBufAllocator;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Connections to one server address, shared by every call to it. Thread-safe; no method blocks.
 */
public interface ClientTransport {

  /**
   * A new stream of {@code method}; nothing is sent until {@link ClientStream#start}. Connects lazily
   * if no connection is up.
   *
   * @param timeoutNanos the time left before the call's deadline, or 0 for none
   * @param requestEncoding how requests are compressed, or null for not at all
   */
  ClientStream newStream(
      MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding);

  /** Whether the transport's connections are TLS (fixed when it is built). */
  boolean isTls();

  /** Whether a connection is up right now (a volatile read, never a socket call). */
  boolean isActive();

  /** The allocator messages for this transport are framed with. */
  ByteBufAllocator alloc();

  /** A scheduler for call deadlines; its tasks must be short. */
  ScheduledExecutorService scheduler();

  /**
   * The time {@link #scheduler()} counts by, in nanoseconds from an arbitrary origin: deadlines are
   * measured with it, so that a test that drives the scheduler's clock drives them too.
   */
  default long nanoTime() {
    return System.nanoTime();
  }

  /** Write-queue counters summed over the transport's current connections. */
  WriteStats writeStats();

  /**
   * Calls {@code listener} after each change of the transport's connections: one became active, is
   * going away (GOAWAY, lost, closed), or an attempt to connect failed, and later its backoff ended (a
   * call may connect again). The signal a test awaits instead of calling again and again. The listener
   * must be quick; any thread.
   *
   * @throws UnsupportedOperationException if the transport reports no changes (the default)
   */
  default void onConnectionsChanged(Runnable listener) {
    throw new UnsupportedOperationException(getClass().getName() + " reports no connection changes");
  }

  /** Closes the connections; calls in flight fail with UNAVAILABLE. */
  void shutdown();
}
