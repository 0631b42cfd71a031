package io.triplerpc.transport.netty.internal.write;

import io.netty.buffer.ByteBuf;

/**
 * Sends framed gRPC messages as DATA, optionally ending the stream. Holds its buffer as every
 * {@link AbstractBufferCommand} does.
 */
public final class SendDataCommand extends AbstractBufferCommand {

  private final boolean endOfStream;
  /** The buffer's readable bytes when queued: what the stream is told was sent once it was. */
  private final int size;

  public SendDataCommand(StreamHandle stream, ByteBuf data, boolean endOfStream) {
    super(stream, data);
    this.endOfStream = endOfStream;
    this.size = data.readableBytes();
  }

  public boolean endOfStream() {
    return endOfStream;
  }

  @Override
  void written() {
    stream().onDataSent(size);
  }
}
