package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.triplerpc.Status;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.WriteQueue;

/**
 * One TCP connection of a client transport, HTTP/2 ({@link ClientConnection}) or HTTP/1.1
 * ({@link Http1ClientConnection}): its channel, its one {@link WriteQueue}, and whether it is up and
 * whether it may take new calls. Both are volatile flags kept by its handler, never a question to the
 * socket.
 */
abstract class AbstractClientConnection {

  final Channel channel;
  final WriteQueue writeQueue;

  /** True once the connection is up (TLS handshake included) until it is going away. */
  volatile boolean active;
  /** True once the connection closed, failed or is going away: no new call may start on it. */
  volatile boolean gone;

  AbstractClientConnection(Channel channel) {
    this.channel = channel;
    this.writeQueue = new WriteQueue(channel);
  }

  final Channel channel() {
    return channel;
  }

  final EventLoop eventLoop() {
    return channel.eventLoop();
  }

  final WriteQueue writeQueue() {
    return writeQueue;
  }

  final boolean isActive() {
    return active;
  }

  /** Whether a new call may start on it (it may still be connecting). */
  boolean isUsable() {
    return !gone;
  }

  /**
   * Closes it because the client closes, through its queue after what its calls queued before: its
   * calls in flight fail with UNAVAILABLE. Any thread.
   */
  final void closeForClient() {
    writeQueue.enqueue(new ForcefulCloseCommand(Status.UNAVAILABLE.withDescription("Client is closed")), true);
  }
}
