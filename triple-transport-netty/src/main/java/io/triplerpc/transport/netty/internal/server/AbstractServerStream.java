package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.transport.netty.internal.OutboundReadiness;
import java.util.function.BooleanSupplier;

/**
 * What the server side of a call is whatever carries it, an HTTP/2 stream of gRPC
 * ({@link NettyServerStream}) or an exchange of a web protocol ({@link WebServerStream}): its event loop,
 * which runs its timers and tells its time, its allocator, and whether it may take more messages: not
 * while its own messages wait for the socket, nor while its connection or the server holds too many
 * unread responses.
 */
abstract class AbstractServerStream implements ServerStream {

  final EventLoop eventLoop;
  final ByteBufAllocator alloc;
  final OutboundReadiness readiness = new OutboundReadiness();
  /** Whether the connection or the server asks every call to hold back; any thread. */
  private final BooleanSupplier holdBack;

  AbstractServerStream(EventLoop eventLoop, ByteBufAllocator alloc, BooleanSupplier holdBack) {
    this.eventLoop = eventLoop;
    this.alloc = alloc;
    this.holdBack = holdBack;
  }

  @Override
  public final boolean isReady() {
    return readiness.isReady() && !holdBack.getAsBoolean();
  }

  @Override
  public final ByteBufAllocator alloc() {
    return alloc;
  }

  @Override
  public final EventLoop scheduler() {
    return eventLoop;
  }

  @Override
  public final long nanoTime() {
    return eventLoop.ticker().nanoTime();
  }
}
