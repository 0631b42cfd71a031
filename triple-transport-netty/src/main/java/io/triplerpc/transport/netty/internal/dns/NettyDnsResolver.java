package io.triplerpc.transport.netty.internal.dns;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsCache;
import io.netty.resolver.dns.DnsCacheEntry;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.NoopAuthoritativeDnsServerCache;
import io.netty.resolver.dns.NoopDnsCnameCache;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.triplerpc.spi.DnsResolver;
import io.triplerpc.spi.DnsResolverFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Netty's DNS resolver, on the one thread of the process kept for DNS: a daemon, so that it never
 * keeps a JVM alive, and apart from the transport's event loops, so that a slow name server never
 * delays a call's I/O. Its cache caches nothing (each resolution asks the name server) and notes the
 * lowest TTL of the addresses it is handed, the one place the resolver reports TTLs.
 */
public final class NettyDnsResolver implements DnsResolver {

  /** The plug-in, named in META-INF/services. */
  public static final class Factory implements DnsResolverFactory {
    @Override
    public DnsResolver create(InetSocketAddress nameServer, Duration queryTimeout) {
      return new NettyDnsResolver(nameServer, queryTimeout);
    }
  }

  private static final class Holder {
    static final EventLoopGroup GROUP =
        new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("triple-dns", true), NioIoHandler.newFactory());
  }

  private final EventLoop loop = Holder.GROUP.next();
  private final TtlRecorder ttls = new TtlRecorder();
  private final DnsNameResolver resolver;

  private NettyDnsResolver(InetSocketAddress nameServer, Duration queryTimeout) {
    this.resolver = new DnsNameResolverBuilder(loop)
        .datagramChannelType(NioDatagramChannel.class)
        .resolvedAddressTypes(ResolvedAddressTypes.IPV4_PREFERRED)
        .resolveCache(ttls)
        .cnameCache(NoopDnsCnameCache.INSTANCE)
        .authoritativeDnsServerCache(NoopAuthoritativeDnsServerCache.INSTANCE)
        .queryTimeoutMillis(queryTimeout.toMillis())
        .nameServerProvider(nameServer != null
            ? new SingletonDnsServerAddressStreamProvider(nameServer)
            : DnsServerAddressStreamProviders.platformDefault())
        .build();
  }

  @Override
  public ScheduledExecutorService loop() {
    return loop;
  }

  @Override
  public CompletableFuture<Answer> resolveAll(String name) {
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    ttls.reset();
    resolver.resolveAll(name).addListener(done -> {
      if (done.isSuccess()) {
        @SuppressWarnings("unchecked")
        List<InetAddress> addresses = (List<InetAddress>) done.getNow();
        answer.complete(new Answer(addresses, addresses.isEmpty() ? 0 : ttls.minTtlSeconds()));
      } else {
        answer.completeExceptionally(done.cause());
      }
    });
    return answer;
  }

  @Override
  public void close() {
    resolver.close();
  }

  /** The cache that caches nothing and keeps the lowest TTL of the resolution under way. */
  private static final class TtlRecorder implements DnsCache {

    /** Seconds; Long.MAX_VALUE until an address came. */
    private volatile long minTtlSeconds = Long.MAX_VALUE;

    void reset() {
      minTtlSeconds = Long.MAX_VALUE;
    }

    long minTtlSeconds() {
      long ttl = minTtlSeconds;
      return ttl == Long.MAX_VALUE ? 0 : ttl;
    }

    @Override
    public void clear() {}

    @Override
    public boolean clear(String hostname) {
      return false;
    }

    @Override
    public List<? extends DnsCacheEntry> get(String hostname, DnsRecord[] additionals) {
      return null;
    }

    @Override
    public DnsCacheEntry cache(String hostname, DnsRecord[] additionals, InetAddress address, long originalTtl,
        EventLoop loop) {
      // Resolutions do not overlap (DnsResolver's contract), so the read and write do not race.
      if (originalTtl < minTtlSeconds) {
        minTtlSeconds = originalTtl;
      }
      return null;
    }

    @Override
    public DnsCacheEntry cache(String hostname, DnsRecord[] additionals, Throwable cause, EventLoop loop) {
      return null;
    }
  }
}
