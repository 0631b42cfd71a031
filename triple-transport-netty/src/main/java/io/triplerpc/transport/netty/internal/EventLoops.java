package io.triplerpc.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import java.net.BindException;
import java.util.concurrent.ExecutionException;

/**
 * Event loops and channel classes of the JVM's default transport ({@link IoTransport#resolve} of nothing),
 * for code that takes no transport option, and the one blocking wait of a server's start.
 */
public final class EventLoops {

  private EventLoops() {}

  /**
   * A new event loop group of the JVM's default transport, {@code threads} threads (0: one per core)
   * named {@code name}.
   *
   * @throws IllegalStateException if {@code -Dio.triplerpc.transport} names a transport that cannot run
   */
  public static EventLoopGroup newGroup(int threads, String name) {
    return IoTransport.resolve(null).newGroup(threads, name);
  }

  /** The client sockets of {@link #newGroup}'s groups. */
  public static Class<? extends SocketChannel> socketChannel() {
    return IoTransport.resolve(null).socketChannel();
  }

  /** The UDP sockets of {@link #newGroup}'s groups (HTTP/3's QUIC). */
  public static Class<? extends DatagramChannel> datagramChannel() {
    return IoTransport.resolve(null).datagramChannel();
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
