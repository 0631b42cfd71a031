package io.triplerpc.transport.netty.internal.write;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;

/**
 * Sends framed gRPC messages as DATA, optionally ending the stream. Holds its buffer: whoever ends up
 * with the command (the HTTP/2 encoder, or the pipeline head when the channel is closed) releases it.
 */
public final class SendDataCommand extends DefaultByteBufHolder implements QueuedCommand {

  private final StreamHandle stream;
  private final boolean endOfStream;
  private final int size;
  private ChannelPromise promise;

  public SendDataCommand(StreamHandle stream, ByteBuf data, boolean endOfStream) {
    super(data);
    this.stream = stream;
    this.endOfStream = endOfStream;
    this.size = data.readableBytes();
  }

  /** The stream the command is for. */
  public StreamHandle stream() {
    return stream;
  }

  public boolean endOfStream() {
    return endOfStream;
  }

  @Override
  public ChannelPromise promise() {
    return promise;
  }

  @Override
  public void promise(ChannelPromise promise) {
    this.promise = promise;
    promise.addListener(this);
  }

  @Override
  public void operationComplete(ChannelFuture future) {
    if (future.isSuccess()) {
      stream.onDataSent(size);
    } else {
      stream.writeFailed(future.cause());
    }
  }

  @Override
  public void fail(Throwable cause) {
    if (refCnt() > 0) {
      release();
    }
    stream.writeFailed(cause);
  }
}
