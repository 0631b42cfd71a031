package io.triplerpc.transport.netty.internal.write;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;

/**
 * Resets a web protocol's exchange (RST_STREAM {@code errorCode}) when its response cannot be
 * finished: nothing is reported back, the exchange is over either way.
 */
public final class ResetStreamCommand implements QueuedCommand {

  private final StreamHandle stream;
  private final long errorCode;
  private ChannelPromise promise;

  public ResetStreamCommand(StreamHandle stream, long errorCode) {
    this.stream = stream;
    this.errorCode = errorCode;
  }

  /** The stream the command is for. */
  public StreamHandle stream() {
    return stream;
  }

  /** The RST_STREAM's HTTP/2 error code. */
  public long errorCode() {
    return errorCode;
  }

  @Override
  public ChannelPromise promise() {
    return promise;
  }

  @Override
  public void promise(ChannelPromise promise) {
    this.promise = promise;
  }

  @Override
  public void operationComplete(ChannelFuture future) {}

  @Override
  public void fail(Throwable cause) {}
}
