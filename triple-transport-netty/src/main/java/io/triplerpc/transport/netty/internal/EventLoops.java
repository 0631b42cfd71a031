package io.triplerpc.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.BindException;
import java.util.concurrent.ExecutionException;

/**
 * Epoll where the platform has it, NIO otherwise; decided once. Netty's own
 * {@code -Dio.netty.transport.noNative=true} makes epoll unavailable, so that is the switch to NIO.
 */
public final class EventLoops {

  private static final boolean EPOLL = Epoll.isAvailable();

  private EventLoops() {}

  /** Whether the native epoll transport is in use. */
  public static boolean epoll() {
    return EPOLL;
  }

  /** A new event loop group of {@code threads} threads (0: one per core) named {@code name}. */
  public static EventLoopGroup newGroup(int threads, String name) {
    int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    IoHandlerFactory factory = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    return new MultiThreadIoEventLoopGroup(n, new DefaultThreadFactory(name, true), factory);
  }

  public static Class<? extends SocketChannel> socketChannel() {
    return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** The UDP channel of the groups {@link #newGroup} makes (HTTP/3's QUIC). */
  public static Class<? extends DatagramChannel> datagramChannel() {
    return EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class;
  }

  public static Class<? extends ServerChannel> serverSocketChannel() {
    return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  /**
   * Waits for a server's {@code bind} of {@code what} (an address, or "UDP " and one) and returns its channel:
   * the one blocking wait of a server's start, so that {@code start()} reports a port in use to its caller.
   * On failure runs {@code release} (the server's event loops) first.
   *
   * @throws BindException if the port cannot be bound, the cause attached
   * @throws IOException if interrupted meanwhile (the interrupt kept)
   */
  public static Channel awaitBind(ChannelFuture bind, String what, Runnable release) throws IOException {
    try {
      bind.get();
      return bind.channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      release.run();
      throw new IOException("Interrupted while binding " + what, e);
    } catch (ExecutionException e) {
      release.run();
      Throwable cause = e.getCause();
      BindException bindException = new BindException("Cannot bind " + what + ": " + cause.getMessage());
      bindException.initCause(cause);
      throw bindException;
    }
  }
}
