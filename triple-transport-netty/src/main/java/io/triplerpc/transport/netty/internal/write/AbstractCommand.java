package io.triplerpc.transport.netty.internal.write;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;

/** A command for one stream that carries no buffer. */
abstract class AbstractCommand implements QueuedCommand {

  private final StreamHandle stream;
  private ChannelPromise promise;

  AbstractCommand(StreamHandle stream) {
    this.stream = stream;
  }

  /** The stream the command is for. */
  public final StreamHandle stream() {
    return stream;
  }

  @Override
  public final ChannelPromise promise() {
    return promise;
  }

  @Override
  public final void promise(ChannelPromise promise) {
    this.promise = promise;
    promise.addListener(this);
  }

  @Override
  public final void operationComplete(ChannelFuture future) {
    if (!future.isSuccess()) {
      stream.writeFailed(future.cause());
    } else {
      written();
    }
  }

  /** The command's frames were written to the socket whole. Event loop. */
  void written() {}

  @Override
  public void fail(Throwable cause) {
    stream.writeFailed(cause);
  }

  /** The stream, for subclasses that fail differently. */
  final StreamHandle handle() {
    return stream;
  }
}
