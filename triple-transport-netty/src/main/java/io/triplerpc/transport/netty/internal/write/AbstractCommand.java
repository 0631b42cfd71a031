package io.triplerpc.transport.netty.internal.write;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;

/**
 * A command for one stream: it listens to its own promise and reports a failed write to the stream.
 * Commands that carry a buffer extend {@link AbstractBufferCommand}.
 */
abstract class AbstractCommand implements QueuedCommand {

  private final StreamHandle stream;
  /** Set once, by the queue, on the event loop just before the command is written; null until then. */
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
      failed(future.cause());
    } else {
      written();
    }
  }

  /** The command's frames were written to the socket whole. Event loop. */
  void written() {}

  /**
   * The command's write failed, or it never ran: the stream hears of it, unless the command reports
   * failures another way.
   */
  void failed(Throwable cause) {
    stream.writeFailed(cause);
  }

  @Override
  public void fail(Throwable cause) {
    failed(cause);
  }
}
