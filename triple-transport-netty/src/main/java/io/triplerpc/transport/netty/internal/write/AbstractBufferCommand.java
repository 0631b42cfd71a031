package io.triplerpc.transport.netty.internal.write;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * A stream command that holds a buffer, and is reference-counted through it: whoever ends up with the
 * command (the HTTP/2 encoder, given {@link #content()}; the pipeline head, when the channel is closed;
 * {@link #fail} when it never runs) releases it exactly once.
 */
abstract class AbstractBufferCommand extends AbstractCommand implements ByteBufHolder {

  private final ByteBuf content;

  AbstractBufferCommand(StreamHandle stream, ByteBuf content) {
    super(stream);
    this.content = content;
  }

  @Override
  public final ByteBuf content() {
    return content;
  }

  /** Releases the buffer, unless something already did, then fails the stream. */
  @Override
  public final void fail(Throwable cause) {
    if (content.refCnt() > 0) {
      content.release();
    }
    super.fail(cause);
  }

  // A copy of a command is not a command: as DefaultByteBufHolder does, copies hold the buffer alone.

  @Override
  public final ByteBufHolder copy() {
    return replace(content.copy());
  }

  @Override
  public final ByteBufHolder duplicate() {
    return replace(content.duplicate());
  }

  @Override
  public final ByteBufHolder retainedDuplicate() {
    return replace(content.retainedDuplicate());
  }

  @Override
  public final ByteBufHolder replace(ByteBuf replacement) {
    return new DefaultByteBufHolder(replacement);
  }

  @Override
  public final int refCnt() {
    return content.refCnt();
  }

  @Override
  public final ByteBufHolder retain() {
    content.retain();
    return this;
  }

  @Override
  public final ByteBufHolder retain(int increment) {
    content.retain(increment);
    return this;
  }

  @Override
  public final ByteBufHolder touch() {
    content.touch();
    return this;
  }

  @Override
  public final ByteBufHolder touch(Object hint) {
    content.touch(hint);
    return this;
  }

  @Override
  public final boolean release() {
    return content.release();
  }

  @Override
  public final boolean release(int decrement) {
    return content.release(decrement);
  }
}
