package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.Channel;

/**
 * One HTTP/1.1 connection of an {@link Http1ClientTransport}: one exchange at a time, then back to
 * its transport's idle connections if both sides keep it alive.
 */
final class Http1ClientConnection extends AbstractClientConnection {

  private final Http1ClientHandler handler;
  private final Http1ClientTransport transport;

  Http1ClientConnection(Channel channel, Http1ClientTransport transport, int maxPendingInbound) {
    super(channel);
    this.transport = transport;
    this.handler = new Http1ClientHandler(this, maxPendingInbound);
  }

  Http1ClientHandler handler() {
    return handler;
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
