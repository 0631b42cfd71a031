package io.triplerpc.transport.netty.internal.write;

/** Sends a PING (not an ACK) with {@code data}, for keepalive or a window's measurement. */
public final class SendPingCommand extends ConnectionCommand {

  private final long data;

  public SendPingCommand(long data) {
    this.data = data;
  }

  /** The PING's opaque 8 bytes, which its ACK echoes. */
  public long data() {
    return data;
  }
}
