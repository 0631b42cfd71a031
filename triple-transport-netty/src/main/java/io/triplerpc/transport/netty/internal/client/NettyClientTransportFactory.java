package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.triplerpc.TlsConfig;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportFactory;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.Http3ClientTransportFactory;
import io.triplerpc.transport.netty.internal.IoTransport;
import io.triplerpc.transport.netty.internal.Tls;
import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Netty client transport plug-in, found by {@link java.util.ServiceLoader}. Its transports run on
 * the loops every client shares ({@link SharedEventLoops}), or on loops of its own when the client
 * asks for a number of threads; either is taken with the first transport.
 */
public final class NettyClientTransportFactory implements ClientTransportFactory {

  /** How long the event loops wait at most for the connections' GOAWAY and close before they stop. */
  private static final long CLOSE_GRACE_SECONDS = 5;

  private EventLoopGroup group;
  /** The transport of {@link #group}, resolved once: every connection's socket is of its classes. */
  private IoTransport io;
  /** Whether {@link #group} is the shared one (released at close) rather than this client's own. */
  private boolean sharedGroup;
  private boolean closed;
  /** Every connection of this factory's transports while it is open. */
  private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  /** Guarded by this; keyed by identity: a client hands every transport the same TlsConfig. */
  private final Map<TlsConfig, SslContext> sslContexts = new IdentityHashMap<>();
  /** The keepalive time of this client's connections, shared so that too_many_pings slows them all. */
  private KeepAliveTime keepAliveTime;
  /** Completed once {@link #close()} has let go of the event loops (or found none to let go of). */
  private final CompletableFuture<Void> loopsReleased = new CompletableFuture<>();
  private final HostResolver resolver;
  /** The HTTP/3 plug-in, found with the first transport of a client built with {@code http3()}; guarded by this. */
  private Http3ClientTransportFactory http3;

  public NettyClientTransportFactory() {
    this(HostResolver.SYSTEM);
  }

  /** With {@code resolver} for the servers' names instead of the system's (a test's that hangs, say). */
  NettyClientTransportFactory(HostResolver resolver) {
    this.resolver = resolver;
  }

  @Override
  public void check(ClientTransportOptions options) {
    IoTransport.resolve(options.transport());
  }

  @Override
  public synchronized ClientTransport newTransport(InetSocketAddress address, ClientTransportOptions options) {
    if (options.http3() != null) {
      return newHttp3Transport(address, options);
    }
    if (group == null) {
      if (closed) {
        // Taking loops now would hold them for ever: nothing closes this factory again.
        throw new IllegalStateException("The client is closed");
      }
      io = IoTransport.resolve(options.transport());
      sharedGroup = options.ioThreads() <= 0;
      group = sharedGroup ? SharedEventLoops.acquire(io) : io.newGroup(options.ioThreads(), "triple-client-io");
      keepAliveTime = new KeepAliveTime(options.keepAlive().timeNanos());
    }
    // One TLS context per client, not per address: a cluster's transports share it (reading the PEM
    // files and building the context again for every server would cost each first call).
    SslContext sslContext = null;
    if (options.tls() != null) {
      sslContext = sslContexts.computeIfAbsent(options.tls(),
          options.http1() ? Tls::http1ClientContext : Tls::clientContext);
    }
    Dialer dialer = new Dialer(address, options, io, ByteBufAllocator.DEFAULT, sslContext, connections, resolver);
    return options.http1()
        ? new Http1ClientTransport(dialer, group)
        : new NettyClientTransport(dialer, group, keepAliveTime);
  }

  /** A transport over HTTP/3, from the plug-in of {@code triple-transport-http3}. Guarded by this. */
  private ClientTransport newHttp3Transport(InetSocketAddress address, ClientTransportOptions options) {
    if (closed) {
      throw new IllegalStateException("The client is closed");
    }
    if (http3 == null) {
      http3 = Http3ClientTransportFactory.find();
      if (http3 == null) {
        throw new IllegalStateException("http3() needs " + Http3ClientTransportFactory.ARTIFACT + " on the class path");
      }
    }
    if (!options.http3().fallsBack()) {
      return http3.newTransport(address, options);
    }
    ClientTransport tcp = newTransport(address, options.withoutHttp3());
    if (options.http3().fromAltSvc()) {
      return new AltSvcClientTransport(tcp,
          port -> http3WithFallback(InetSocketAddress.createUnresolved(address.getHostString(), port), options, tcp));
    }
    return http3WithFallback(address, options, tcp);
  }

  /** HTTP/3 to {@code address}, falling back to {@code tcp}. */
  private synchronized FallbackClientTransport http3WithFallback(InetSocketAddress address,
      ClientTransportOptions options, ClientTransport tcp) {
    if (closed) {
      throw new IllegalStateException("The client is closed");
    }
    FallbackClientTransport fallback = new FallbackClientTransport(tcp);
    fallback.http3(http3.newTransport(address, options, fallback::fallBack));
    return fallback;
  }

  /**
   * Stops this client's event loops, or lets go of the shared ones, once every connection of its
   * has closed (the transports were shut down first, so each is sending its GOAWAY), or after
   * {@value #CLOSE_GRACE_SECONDS} s. Not at once: an event loop that shuts down closes its channels
   * before it runs the tasks still queued, the GOAWAYs among them.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (http3 != null) {
      http3.close();
    }
    if (group == null) {
      loopsReleased.complete(null);
      return;
    }
    EventLoopGroup closing = group;
    boolean shared = sharedGroup;
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stop = () -> {
      if (stopped.compareAndSet(false, true)) {
        if (shared) {
          SharedEventLoops.release(closing);
        } else {
          closing.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        }
        loopsReleased.complete(null);
      }
    };
    // The timer first: with no connection left, the listener stops the loops at once.
    closing.schedule(stop, CLOSE_GRACE_SECONDS, TimeUnit.SECONDS);
    connections.newCloseFuture().addListener(allClosed -> stop.run());
  }

  /**
   * Completes once {@link #close()} has released the shared event loops or begun stopping this client's
   * own: the signal a test awaits instead of asking {@link SharedEventLoops#users()} again and again.
   */
  CompletableFuture<Void> loopsReleased() {
    return loopsReleased;
  }
}
