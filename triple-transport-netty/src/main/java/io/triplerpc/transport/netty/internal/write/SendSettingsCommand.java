package io.triplerpc.transport.netty.internal.write;

import io.netty.handler.codec.http2.Http2Settings;

/** Sends a SETTINGS frame (not an ACK) with {@code settings}: a larger window, say. */
public final class SendSettingsCommand extends ConnectionCommand {

  private final Http2Settings settings;

  public SendSettingsCommand(Http2Settings settings) {
    this.settings = settings;
  }

  public Http2Settings settings() {
    return settings;
  }
}
