package io.triplerpc.transport.netty.internal.write;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;

/** A command for the whole connection rather than one stream; it holds no buffer. */
abstract class ConnectionCommand implements QueuedCommand {

  private ChannelPromise promise;

  @Override
  public final ChannelPromise promise() {
    return promise;
  }

  /** Takes the promise without listening to it: there is nothing to report, see below. */
  @Override
  public final void promise(ChannelPromise promise) {
    this.promise = promise;
  }

  /** Nothing to report: each stream the command ends is closed by the handler or with the channel. */
  @Override
  public final void operationComplete(ChannelFuture future) {
  }

  /** Nothing to do: a queue fails its commands only once its connection is gone, which is what was asked. */
  @Override
  public final void fail(Throwable cause) {
  }
}
