package io.triplerpc.benchmark.triple;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.internal.ThreadExecutorMap;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.Ablations;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportFactory;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.ForwardingClientStream;
import io.triplerpc.internal.stream.ForwardingClientStreamListener;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.client.NettyClientTransportFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The benchmark's ablation of asynchronous stream creation ({@link Ablations#WAIT_FOR_STREAM}): the
 * Netty transports, whose calls, started off an event loop, wait until the event loop created their
 * HTTP/2 stream and sent its headers (or closed it), as a {@code sync()} would. Found by the client
 * before the Netty factory (this module's service file comes first on its class path and in its jar);
 * without the ablation it hands out the Netty transports themselves.
 */
public final class WaitForStreamTransports implements ClientTransportFactory {

  private final NettyClientTransportFactory netty = new NettyClientTransportFactory();
  /** Whether streams wait to be created. */
  private final boolean waitForStream;

  /** As the ablation switch says; the client finds this one. */
  public WaitForStreamTransports() {
    this(Ablations.WAIT_FOR_STREAM);
  }

  WaitForStreamTransports(boolean waitForStream) {
    this.waitForStream = waitForStream;
  }

  @Override
  public ClientTransport newTransport(InetSocketAddress address, ClientTransportOptions options) {
    ClientTransport transport = netty.newTransport(address, options);
    return waitForStream ? new Waiting(transport) : transport;
  }

  @Override
  public void close() {
    netty.close();
  }

  /** A transport whose streams wait to be created. */
  private static final class Waiting implements ClientTransport {

    private final ClientTransport transport;

    Waiting(ClientTransport transport) {
      this.transport = transport;
    }

    @Override
    public ClientStream newStream(
        MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
      return new WaitingStream(transport.newStream(method, headers, timeoutNanos, requestEncoding));
    }

    @Override
    public boolean isTls() {
      return transport.isTls();
    }

    @Override
    public boolean isActive() {
      return transport.isActive();
    }

    @Override
    public ByteBufAllocator alloc() {
      return transport.alloc();
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return transport.scheduler();
    }

    @Override
    public long nanoTime() {
      return transport.nanoTime();
    }

    @Override
    public void onConnectionsChanged(Runnable listener) {
      transport.onConnectionsChanged(listener);
    }

    @Override
    public WriteStats writeStats() {
      return transport.writeStats();
    }

    @Override
    public void shutdown() {
      transport.shutdown();
    }
  }

  /**
   * A stream whose start waits for its first event: ready (the stream exists and its headers went to
   * the socket), or its end, delivered to the caller's listener before start returns. Never on an event
   * loop, which would wait for itself.
   */
  private static final class WaitingStream extends ForwardingClientStream {

    WaitingStream(ClientStream stream) {
      super(stream);
    }

    @Override
    public void start(ClientStreamListener listener, boolean headersNow) {
      if (ThreadExecutorMap.currentExecutor() != null) {
        delegate().start(listener, headersNow);
        return;
      }
      CompletableFuture<Void> created = new CompletableFuture<>();
      delegate().start(new ForwardingClientStreamListener(listener) {
        @Override
        public void onClose(Status status, Metadata trailers) {
          try {
            super.onClose(status, trailers);
          } finally {
            created.complete(null);
          }
        }

        @Override
        public void onUnprocessed(Status status) {
          try {
            super.onUnprocessed(status);
          } finally {
            created.complete(null);
          }
        }

        @Override
        public void onReady() {
          try {
            super.onReady();
          } finally {
            created.complete(null);
          }
        }
      }, true);
      created.join();
    }
  }
}
