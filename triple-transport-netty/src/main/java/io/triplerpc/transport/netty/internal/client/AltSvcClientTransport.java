package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBufAllocator;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ForwardingClientStream;
import io.triplerpc.internal.stream.ForwardingClientStreamListener;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntFunction;

/**
 * The transport of a client built with {@code http3FromAltSvc()}: calls go over HTTP/2 on TCP, and the
 * response heads are read for {@code Alt-Svc}. Once the server advertised {@code h3=":port"}, new calls go
 * over HTTP/3 to that port until the advertisement's {@code ma} runs out or the server clears it, falling
 * back to TCP as {@link FallbackClientTransport} does when HTTP/3 cannot connect.
 */
final class AltSvcClientTransport implements ClientTransport {

  private static final String ALT_SVC = "alt-svc";

  private final ClientTransport tcp;
  /** Makes the HTTP/3 transport (falling back to {@link #tcp}) to a port of the same host. */
  private final IntFunction<FallbackClientTransport> http3;

  /** The advertisement followed now, or null; replaced whole. */
  private volatile Followed followed;

  /** An advertisement and the transport that follows it. */
  private record Followed(AltSvc altSvc, FallbackClientTransport transport) {}

  AltSvcClientTransport(ClientTransport tcp, IntFunction<FallbackClientTransport> http3) {
    this.tcp = tcp;
    this.http3 = http3;
  }

  @Override
  public ClientStream newStream(
      MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
    Followed now = followed;
    if (now != null && now.altSvc.isFresh(tcp.nanoTime()) && !now.transport.fellBack()) {
      return now.transport.newStream(method, headers, timeoutNanos, requestEncoding);
    }
    return new Watched(tcp.newStream(method, headers, timeoutNanos, requestEncoding));
  }

  /** A response over TCP carried {@code value} in its {@code Alt-Svc}. Any thread. */
  void advertised(String value) {
    AltSvc altSvc = AltSvc.parse(value, tcp.nanoTime());
    if (altSvc == null) {
      return;
    }
    synchronized (this) {
      Followed now = followed;
      if (altSvc == AltSvc.CLEAR) {
        followed = null;
        return;
      }
      if (now != null && now.altSvc.port() == altSvc.port()) {
        if (!now.transport.fellBack()) {
          followed = new Followed(altSvc, now.transport);
        }
        return;
      }
      FallbackClientTransport transport;
      try {
        transport = http3.apply(altSvc.port());
      } catch (IllegalStateException closed) {
        return;
      }
      followed = new Followed(altSvc, transport);
      if (now != null) {
        now.transport.shutdownHttp3();
      }
    }
  }

  @Override
  public boolean isTls() {
    return tcp.isTls();
  }

  @Override
  public boolean isActive() {
    return tcp.isActive();
  }

  @Override
  public ByteBufAllocator alloc() {
    return tcp.alloc();
  }

  @Override
  public ScheduledExecutorService scheduler() {
    return tcp.scheduler();
  }

  @Override
  public long nanoTime() {
    return tcp.nanoTime();
  }

  @Override
  public WriteStats writeStats() {
    return tcp.writeStats();
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    tcp.onConnectionsChanged(listener);
  }

  @Override
  public synchronized void shutdown() {
    Followed now = followed;
    if (now != null) {
      now.transport.shutdownHttp3();
    }
    tcp.shutdown();
  }

  /** A stream over TCP whose response head is read for {@code Alt-Svc}. */
  private final class Watched extends ForwardingClientStream {

    Watched(ClientStream stream) {
      super(stream);
    }

    @Override
    public void start(ClientStreamListener listener, boolean headersNow) {
      delegate().start(new ForwardingClientStreamListener(listener) {
        @Override
        public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {
          String altSvc = headers.get(ALT_SVC);
          if (altSvc != null) {
            advertised(altSvc);
          }
          super.onHeaders(headers, responseEncoding);
        }
      }, headersNow);
    }
  }
}
