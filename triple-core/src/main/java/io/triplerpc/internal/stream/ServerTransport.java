package io.triplerpc.internal.stream;

import io.triplerpc.WriteStats;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/** A listening server socket and its connections. Thread-safe. */
public interface ServerTransport {

  /** The bound address (with the real port when 0 was asked for). */
  InetSocketAddress localAddress();

  /** Connections open now, accepted and not yet closed, whatever their protocol. Never blocks. */
  int openConnections();

  /**
   * Write-queue counters of every HTTP/2 connection since the transport started, closed ones included, so
   * they never decrease. Never blocks.
   */
  WriteStats writeStats();

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
