package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.Channel;
import io.triplerpc.internal.Ablations;

/**
 * One HTTP/2 connection to a server, one of its {@link ConnectionSlot}'s in turn: streams go to it
 * until it closes, fails or gets GOAWAY.
 */
final class ClientConnection extends AbstractClientConnection {

  private final String address;
  private final ConnectionSlot slot;

  ClientConnection(Channel channel, String address, ConnectionSlot slot) {
    super(channel);
    this.address = address;
    this.slot = slot;
  }

  /** {@code host:port} of the server. */
  String address() {
    return address;
  }

  @Override
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
