package io.triplerpc.transport.netty.internal.write;

import io.triplerpc.Status;

/**
 * Closes the connection now: every stream in flight ends with {@code status}, a GOAWAY tells the
 * peer, and the connection closes once it is written.
 */
public final class ForcefulCloseCommand extends ConnectionCommand {

  private final Status status;

  public ForcefulCloseCommand(Status status) {
    this.status = status;
  }

  /** The status of the calls the close ends. */
  public Status status() {
    return status;
  }
}
