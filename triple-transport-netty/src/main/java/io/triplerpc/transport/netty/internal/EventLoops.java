package io.triplerpc.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.io.IOException;
import java.net.BindException;
import java.util.concurrent.ExecutionException;

/** What starting a server's event loops shares between its TCP and UDP listeners. */
public final class EventLoops {

  private EventLoops() {}

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
