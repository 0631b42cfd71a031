package io.triplerpc.transport.netty.internal.write;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPromise;

/**
 * Sends part of an HTTP response body as DATA for a web protocol's exchange (Connect, gRPC-Web),
 * optionally ending the stream. Its writer waits on each part: {@code writerPromise} completes once the
 * part reached the socket, or failed. Holds its buffer as {@link SendDataCommand} does.
 */
public final class SendBodyCommand extends AbstractBufferCommand {

  private final boolean endOfStream;
  /** The writer's promise: completed with this command's. */
  private final ChannelPromise writerPromise;

  public SendBodyCommand(StreamHandle stream, ByteBuf data, boolean endOfStream, ChannelPromise writerPromise) {
    super(stream, data);
    this.endOfStream = endOfStream;
    this.writerPromise = writerPromise;
  }

  public boolean endOfStream() {
    return endOfStream;
  }

  @Override
  void written() {
    writerPromise.trySuccess();
  }

  @Override
  void failed(Throwable cause) {
    writerPromise.tryFailure(cause);
  }
}
