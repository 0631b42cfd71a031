package io.triplerpc.transport.netty.internal.write;

/**
 * Closes the connection once the streams in flight end: GOAWAY first, no new streams accepted, and
 * the connection closes when the last stream ends. What each side sends is the handler's to decide
 * (a server announces it with two GOAWAY frames around a PING).
 */
public final class GracefulCloseCommand extends ConnectionCommand {

  /** The server is shutting down. */
  public static final String SHUTDOWN = "server shutting down";

  private final String reason;

  /** @param reason the GOAWAY's debug data: {@link #SHUTDOWN}, "max_age", "max_idle" */
  public GracefulCloseCommand(String reason) {
    this.reason = reason;
  }

  /** Why the connection closes, sent as the GOAWAY's debug data. */
  public String reason() {
    return reason;
  }
}
