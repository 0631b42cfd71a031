package io.triplerpc.transport.netty.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ScheduledFuture;

/**
 * First in the pipeline of a connection whose writes reach the socket after {@code flush()} returns
 * (io_uring, {@link IoTransport#writesLater}): holds a close back until what was written before it has
 * been written, at most {@code boundMillis}. On epoll and NIO a flush writes to the socket before it
 * returns, so the frames that explain a close (RST_STREAM, GOAWAY ENHANCE_YOUR_CALM), written and flushed
 * just before it, reach a peer whose socket has room; Netty's handlers and Triple's rely on that (Netty's
 * RST_STREAM limit closes at once after its GOAWAY). io_uring submits the write to the kernel later, and a
 * close in between drops it: this handler keeps the order. A peer that reads nothing never lets the
 * writes complete, hence the bound. Event loop only.
 */
public final class CloseAfterWrites extends ChannelOutboundHandlerAdapter {

  private final long boundMillis;
  /** Whether a close is held back; set once. */
  private boolean closing;

  /** Holds each close at most {@code boundMillis}. */
  public CloseAfterWrites(long boundMillis) {
    this.boundMillis = Math.max(0, boundMillis);
  }

  @Override
  public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    if (closing) {
      // Another close while one is held back: it completes with that one.
      ctx.channel().closeFuture().addListener(closed -> promise.trySuccess());
      return;
    }
    ChannelOutboundBuffer pending = ctx.channel().unsafe().outboundBuffer();
    if (pending == null || pending.totalPendingWriteBytes() == 0 || !ctx.channel().isActive()) {
      ctx.close(promise);
      return;
    }
    closing = true;
    // Written after everything before it: done once they are.
    ChannelFuture written = ctx.writeAndFlush(Unpooled.EMPTY_BUFFER);
    ScheduledFuture<?> bound = ctx.executor().schedule(() -> ctx.close(promise), boundMillis, TimeUnit.MILLISECONDS);
    written.addListener(done -> {
      if (bound.cancel(false)) {
        ctx.close(promise);
      }
    });
  }
}
