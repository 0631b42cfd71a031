package io.triplerpc.transport.netty.internal.write;

import io.triplerpc.Status;

/**
 * Closes the connection now: every stream in flight ends with {@code status}, a GOAWAY tells the
 * peer (NO_ERROR, or the error and debug data given), and the connection closes once it is written.
 */
public final class ForcefulCloseCommand extends ConnectionCommand {

  private final Status status;
  private final long errorCode;
  private final String debugData;

  /** A close for no fault of the peer: GOAWAY NO_ERROR. */
  public ForcefulCloseCommand(Status status) {
    this(status, 0, "");
  }

  /** A close with GOAWAY {@code errorCode} (an HTTP/2 error code) and {@code debugData}. */
  public ForcefulCloseCommand(Status status, long errorCode, String debugData) {
    this.status = status;
    this.errorCode = errorCode;
    this.debugData = debugData;
  }

  /** The status of the calls the close ends. */
  public Status status() {
    return status;
  }

  /** The GOAWAY's HTTP/2 error code. */
  public long errorCode() {
    return errorCode;
  }

  /** The GOAWAY's debug data, possibly empty. */
  public String debugData() {
    return debugData;
  }
}
