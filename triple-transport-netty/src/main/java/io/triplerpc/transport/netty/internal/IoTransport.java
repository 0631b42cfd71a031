package io.triplerpc.transport.netty.internal;

import io.netty.channel.Channel;
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
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.triplerpc.Transport;
import java.util.Locale;

/**
 * The I/O an event loop group runs on, with the channel classes that go with it: a group and its
 * channels are always of one of these. {@link #resolve} turns what a client or server asked for
 * ({@link Transport}, or nothing) into the one to use, once per client or server.
 */
public enum IoTransport {

  IO_URING("io_uring") {
    @Override
    public Throwable unavailabilityCause() {
      try {
        return IoUring.unavailabilityCause();
      } catch (LinkageError e) {
        // netty-transport-classes-io_uring left out of the class path.
        return e;
      }
    }

    @Override
    public IoHandlerFactory ioHandlerFactory() {
      return IoUringIoHandler.newFactory();
    }

    @Override
    public Class<? extends SocketChannel> socketChannel() {
      return IoUringSocketChannel.class;
    }

    @Override
    public Class<? extends ServerChannel> serverSocketChannel() {
      return IoUringServerSocketChannel.class;
    }

    @Override
    public Class<? extends DatagramChannel> datagramChannel() {
      return IoUringDatagramChannel.class;
    }
  },

  EPOLL("epoll") {
    @Override
    public Throwable unavailabilityCause() {
      return Epoll.unavailabilityCause();
    }

    @Override
    public IoHandlerFactory ioHandlerFactory() {
      return EpollIoHandler.newFactory();
    }

    @Override
    public Class<? extends SocketChannel> socketChannel() {
      return EpollSocketChannel.class;
    }

    @Override
    public Class<? extends ServerChannel> serverSocketChannel() {
      return EpollServerSocketChannel.class;
    }

    @Override
    public Class<? extends DatagramChannel> datagramChannel() {
      return EpollDatagramChannel.class;
    }
  },

  NIO("nio") {
    @Override
    public Throwable unavailabilityCause() {
      return null;
    }

    @Override
    public IoHandlerFactory ioHandlerFactory() {
      return NioIoHandler.newFactory();
    }

    @Override
    public Class<? extends SocketChannel> socketChannel() {
      return NioSocketChannel.class;
    }

    @Override
    public Class<? extends ServerChannel> serverSocketChannel() {
      return NioServerSocketChannel.class;
    }

    @Override
    public Class<? extends DatagramChannel> datagramChannel() {
      return NioDatagramChannel.class;
    }
  };

  /** The system property that names the transport of every client and server that does not ask for one. */
  public static final String PROPERTY = "io.triplerpc.transport";

  /** The name in logs and in {@link #PROPERTY}'s values. */
  private final String label;

  IoTransport(String label) {
    this.label = label;
  }

  /**
   * The transport for what a client or server asked for: {@code asked}, or when null what {@link #PROPERTY}
   * names, or without it epoll where available, then NIO (the default until io_uring is measured as fast
   * on every benchmark row). {@link Transport#AUTO} takes io_uring, epoll, NIO, the first available.
   * Netty's {@code -Dio.netty.transport.noNative=true} makes both native ones unavailable.
   *
   * @throws IllegalStateException if the transport asked for cannot run here, with Netty's reason as the
   *     cause, or if {@link #PROPERTY} names none
   */
  public static IoTransport resolve(Transport asked) {
    if (asked != null) {
      return resolve(asked, "transport(Transport." + asked + ")");
    }
    String property = System.getProperty(PROPERTY);
    if (property == null || property.isBlank()) {
      return EPOLL.isAvailable() ? EPOLL : NIO;
    }
    return resolve(parse(property), "-D" + PROPERTY + "=" + property);
  }

  private static IoTransport resolve(Transport asked, String where) {
    IoTransport transport;
    switch (asked) {
      case AUTO:
        return IO_URING.isAvailable() ? IO_URING : EPOLL.isAvailable() ? EPOLL : NIO;
      case IO_URING:
        transport = IO_URING;
        break;
      case EPOLL:
        transport = EPOLL;
        break;
      default:
        transport = NIO;
        break;
    }
    Throwable cause = transport.unavailabilityCause();
    if (cause != null) {
      throw new IllegalStateException(where + " asks for " + transport.label + ", which cannot run here: " + cause,
          cause);
    }
    return transport;
  }

  private static Transport parse(String property) {
    String name = property.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (Transport transport : Transport.values()) {
      if (transport.name().equals(name)) {
        return transport;
      }
    }
    throw new IllegalStateException("-D" + PROPERTY + "=" + property
        + " names no transport: auto, io_uring, epoll or nio");
  }

  /** Why this transport cannot run here, or null if it can. */
  public abstract Throwable unavailabilityCause();

  /** Whether this transport can run here. */
  public boolean isAvailable() {
    return unavailabilityCause() == null;
  }

  /** The I/O handlers of this transport's event loops. */
  public abstract IoHandlerFactory ioHandlerFactory();

  /** The client sockets of this transport's groups. */
  public abstract Class<? extends SocketChannel> socketChannel();

  /** The listening sockets of this transport's groups. */
  public abstract Class<? extends ServerChannel> serverSocketChannel();

  /** The UDP sockets of this transport's groups (HTTP/3's QUIC). */
  public abstract Class<? extends DatagramChannel> datagramChannel();

  /** A new event loop group of this transport, {@code threads} threads (0: one per core) named {@code name}. */
  public EventLoopGroup newGroup(int threads, String name) {
    int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    return new MultiThreadIoEventLoopGroup(n, new DefaultThreadFactory(name, true), ioHandlerFactory());
  }

  /**
   * Whether {@code channel}'s writes reach its socket after {@code flush()} has returned (io_uring submits
   * them to the kernel, which completes them later), rather than during the flush (epoll, NIO): a close
   * right after a flush drops them ({@link CloseAfterWrites}).
   */
  public static boolean writesLater(Channel channel) {
    return channel instanceof IoUringSocketChannel;
  }

  /** {@code io_uring}, {@code epoll} or {@code nio}. */
  @Override
  public String toString() {
    return label;
  }
}
