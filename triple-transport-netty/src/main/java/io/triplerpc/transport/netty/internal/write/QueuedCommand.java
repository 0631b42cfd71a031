package io.triplerpc.transport.netty.internal.write;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;

/**
 * Something a connection is asked to do, for one stream or for the whole connection (close it),
 * queued by any thread and run on its event loop by {@link WriteQueue}. Each command goes through
 * the channel pipeline as a message, so the handler's {@code write()} lists every command it
 * accepts in one place and refuses anything else.
 *
 * <p>A command listens to its own promise: if a stream's command fails, its stream is closed with the cause.
 */
public interface QueuedCommand extends ChannelFutureListener {

  /** The promise the command completes; set by the queue just before the command is written. */
  ChannelPromise promise();

  void promise(ChannelPromise promise);

  /** Fails the command without running it (the connection is gone): releases what it holds. */
  void fail(Throwable cause);
}
