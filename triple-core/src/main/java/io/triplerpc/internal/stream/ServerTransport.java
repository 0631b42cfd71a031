package io.triplerpc.internal.stream;

import io.triplerpc.WriteStats;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A listening server socket and its connections. Thread-safe. */
public interface ServerTransport {

  /** The bound address (with the real port when 0 was asked for). */
  InetSocketAddress localAddress();

  /** Connections open now, accepted and not yet closed, whatever their protocol. Never blocks. */
  int openConnections();

  /**
   * Each open connection's {@link ConnectionView}, each future completed on that connection's event loop
   * (exceptionally if the connection closed first), so that a loop that is stuck delays only its own. For the
   * admin endpoint, which bounds its wait; never blocks. None by default (a transport that does not tell).
   */
  default List<CompletableFuture<ConnectionView>> describeConnections() {
    return List.of();
  }

  /**
   * Write-queue counters of every HTTP/2 connection since the transport started, closed ones included, so
   * they never decrease. Never blocks.
   */
  WriteStats writeStats();

  /**
   * Calls {@code listener} after each change of {@link #openConnections()}, and after each closed
   * connection's writes moved into the closed ones' {@link #writeStats()}: the signal a test awaits
   * instead of asking again and again. The listener must be quick; any thread.
   */
  void onConnectionsChanged(Runnable listener);

  /**
   * Completes once every event loop of the server has finished the tasks it had queued or was running,
   * the write queues' drains among them: from then on {@link #writeStats()} counts every write a peer has
   * read, and what connections closed before the call had queued is released (a close may queue a further
   * step: call again for it). For tests; never blocks.
   */
  CompletableFuture<Void> writesSettled();

  /**
   * Stops accepting connections and sends GOAWAY on every open one, so no new streams start; streams
   * in flight go on. Each connection closes when its last stream ends. Never blocks.
   */
  void shutdown();

  /** Closes every connection now; streams in flight are cancelled. Never blocks. */
  void shutdownNow();

  /** Completes when the socket and every connection are closed and the event loops stopped. */
  CompletableFuture<Void> terminationFuture();
}
