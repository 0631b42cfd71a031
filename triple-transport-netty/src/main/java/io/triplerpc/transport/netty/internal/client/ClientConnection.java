package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.triplerpc.internal.Ablations;
import io.triplerpc.transport.netty.internal.write.WriteQueue;

/**
 * One TCP connection to a server: its channel, its one {@link WriteQueue}, and whether it can take
 * new streams. Availability is a volatile flag kept by the handler's channelActive/channelInactive,
 * never a question to the socket.
 */
final class ClientConnection {

  private final Channel channel;
  private final WriteQueue writeQueue;
  private final String address;
  private final ConnectionSlot slot;

  /** True between channelActive and the first sign the connection is going away. */
  private volatile boolean active;
  /** True once the connection closed, failed or got GOAWAY: new streams go elsewhere. */
  private volatile boolean gone;

  ClientConnection(Channel channel, String address, ConnectionSlot slot) {
    this.channel = channel;
    this.writeQueue = new WriteQueue(channel);
    this.address = address;
    this.slot = slot;
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

  /** {@code host:port} of the server. */
  String address() {
    return address;
  }

  boolean isActive() {
    return active;
  }

  /** Whether new streams may still be opened here (it may still be connecting). */
  boolean isUsable() {
    if (Ablations.ASK_CHANNEL) {
      // What the flag replaced: a question to the channel (and through it the socket) per call.
      return !gone && channel.isOpen() && (channel.isActive() || !active);
    }
    return !gone;
  }

  /** The HTTP/2 preface went out: commands may flow. Event loop. */
  void markActive() {
    if (!gone) {
      active = true;
      slot.connected(this);
    }
    writeQueue.markReady();
  }

  /** The connection is going away: no new streams; what still waits in the queue fails. */
  void markGone(Throwable cause) {
    active = false;
    if (!gone) {
      gone = true;
      slot.lost(this, cause);
    }
  }

  /** The connection closed (or never opened): fail what waits and what comes. */
  void markClosed(Throwable cause) {
    markGone(cause);
    writeQueue.markFailed(cause);
  }
}
