package io.triplerpc.transport.netty.internal.write;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;

/**
 * Sends part of an HTTP response body as DATA for a web protocol's exchange (Connect, gRPC-Web),
 * optionally ending the stream. Its writer waits on each part: {@code written} completes once the
 * part reached the socket, or failed. Holds its buffer as {@link SendDataCommand} does.
 */
public final class SendBodyCommand extends DefaultByteBufHolder implements QueuedCommand {

  private final StreamHandle stream;
  private final boolean endOfStream;
  /** The writer's promise: completed with this command's. */
  private final ChannelPromise written;
  private ChannelPromise promise;

  public SendBodyCommand(StreamHandle stream, ByteBuf data, boolean endOfStream, ChannelPromise written) {
    super(data);
    this.stream = stream;
    this.endOfStream = endOfStream;
    this.written = written;
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
      written.trySuccess();
    } else {
      written.tryFailure(future.cause());
    }
  }

  @Override
  public void fail(Throwable cause) {
    if (refCnt() > 0) {
      release();
    }
    written.tryFailure(cause);
  }
}
