package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.triplerpc.transport.netty.internal.write.WriteQueue;

/**
 * One HTTP/1.1 connection of an {@link Http1ClientTransport}: one exchange at a time, then back to
 * its transport's idle connections if both sides keep it alive. Its state is volatile flags kept by
 * its handler, never a question to the socket.
 */
final class Http1ClientConnection {

  private final Channel channel;
  private final WriteQueue writeQueue;
  private final Http1ClientHandler handler;
  private final Http1ClientTransport transport;

  /** True once the connection is up (TLS handshake included) until it is gone. */
  private volatile boolean active;
  /** True once the connection closed, failed, or will close: no exchange may start on it. */
  private volatile boolean gone;

  Http1ClientConnection(Channel channel, Http1ClientTransport transport, int maxPendingInbound) {
    this.channel = channel;
    this.transport = transport;
    this.writeQueue = new WriteQueue(channel);
    this.handler = new Http1ClientHandler(this, maxPendingInbound);
  }

  Channel channel() {
    return channel;
  }

  EventLoop eventLoop() {
    return channel.eventLoop();
  }

  WriteQueue writeQueue() {
    return writeQueue;
  }

  Http1ClientHandler handler() {
    return handler;
  }

  boolean isActive() {
    return active;
  }

  /** Whether an exchange may start on it (it may still be connecting). */
  boolean isUsable() {
    return !gone;
  }

  /** The connection is up: commands may flow. Event loop. */
  void markActive() {
    if (!gone) {
      active = true;
    }
    writeQueue.markReady();
  }

  /** The connection closed (or never opened): what waits and what comes fails. */
  void markClosed(Throwable cause) {
    active = false;
    gone = true;
    writeQueue.markFailed(cause);
    transport.closed(this);
  }

  /** The exchange ended and both sides keep the connection alive: the next call may take it. Event loop. */
  void exchangeEnded() {
    transport.release(this);
  }

  /** Closes the connection; its exchange, if any, fails. Any thread. */
  void close() {
    gone = true;
    channel.close();
  }

  @Override
  public String toString() {
    return "Http1ClientConnection{" + channel + '}';
  }
}
