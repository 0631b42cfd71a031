package io.triplerpc.transport.netty.internal.write;

/**
 * Resets a web protocol's exchange (RST_STREAM {@code errorCode}) when its response cannot be
 * finished: nothing is reported back, the exchange is over either way.
 */
public final class ResetStreamCommand extends AbstractCommand {

  private final long errorCode;

  public ResetStreamCommand(StreamHandle stream, long errorCode) {
    super(stream);
    this.errorCode = errorCode;
  }

  /** The RST_STREAM's HTTP/2 error code. */
  public long errorCode() {
    return errorCode;
  }

  @Override
  void failed(Throwable cause) {}
}
