package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBufAllocator;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The transport of a client built with {@code http3(fallbackAfter)}: its calls go over HTTP/3 until the
 * HTTP/3 transport says its connection could not be made in time (UDP blocked, no HTTP/3 on the server, a
 * failed handshake); from then on, over HTTP/2 on TCP to the same host and port. The calls that waited for
 * the failed handshake were never sent, so they go again at once, and find HTTP/2.
 */
final class FallbackClientTransport implements ClientTransport {

  private final ClientTransport tcp;
  /** Set once, just after construction. */
  private ClientTransport http3;
  /** True once HTTP/3 failed to connect in time: every call goes over TCP. */
  private volatile boolean fellBack;

  FallbackClientTransport(ClientTransport tcp) {
    this.tcp = tcp;
  }

  void http3(ClientTransport http3) {
    this.http3 = http3;
  }

  /** HTTP/3 could not connect in time: the calls go over TCP from now on. Any thread, before the waiting calls fail. */
  void fallBack() {
    fellBack = true;
  }

  /** Whether the calls go over TCP now. */
  boolean fellBack() {
    return fellBack;
  }

  private ClientTransport current() {
    return fellBack ? tcp : http3;
  }

  @Override
  public ClientStream newStream(
      MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
    return current().newStream(method, headers, timeoutNanos, requestEncoding);
  }

  @Override
  public boolean isTls() {
    return true;
  }

  @Override
  public boolean isActive() {
    return current().isActive();
  }

  @Override
  public ByteBufAllocator alloc() {
    return tcp.alloc();
  }

  /** TCP's: the calls' timers must not move when the transport underneath does. */
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
    return current().writeStats();
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    tcp.onConnectionsChanged(listener);
    http3.onConnectionsChanged(listener);
  }

  /** Shuts the HTTP/3 side down only: an {@link AltSvcClientTransport} that stops following it keeps TCP. */
  void shutdownHttp3() {
    http3.shutdown();
  }

  @Override
  public void shutdown() {
    http3.shutdown();
    tcp.shutdown();
  }

  @Override
  public String toString() {
    return "FallbackClientTransport{" + (fellBack ? tcp : http3) + '}';
  }
}
