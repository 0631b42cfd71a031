package io.triplerpc.transport.netty.internal.write;

import io.triplerpc.Status;

/**
 * Ends a stream abnormally with {@code status}: a client resets it (RST_STREAM CANCEL); a server sends
 * the status in trailers if it still can, then resets it.
 */
public final class CancelStreamCommand extends AbstractCommand {

  private final Status status;

  public CancelStreamCommand(StreamHandle stream, Status status) {
    super(stream);
    this.status = status;
  }

  public Status status() {
    return status;
  }
}
