package io.triplerpc.registry.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.NoopAuthoritativeDnsServerCache;
import io.netty.resolver.dns.NoopDnsCnameCache;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The one thread of the process on which DNS names are resolved (Netty's resolver needs an event
 * loop): a daemon, so that it never keeps a JVM alive, and apart from the transport's event loops, so
 * that a slow name server never delays a call's I/O. The registry's one door to Netty's channels.
 */
public final class DnsLoop {

  private static final class Holder {
    static final EventLoopGroup GROUP =
        new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("triple-dns", true), NioIoHandler.newFactory());
  }

  private DnsLoop() {}

  /** The loop, started on first use: answers come on it. */
  public static ScheduledExecutorService loop() {
    return Holder.GROUP.next();
  }

  /**
   * A resolver on the loop that asks {@code nameServer} (null for the system's), caches nothing
   * between resolutions, and reports each address's TTL to {@code ttls}; A and AAAA records both.
   */
  public static DnsNameResolver resolver(InetSocketAddress nameServer, long queryTimeoutMillis, DnsTtls ttls) {
    return new DnsNameResolverBuilder(Holder.GROUP.next())
        .datagramChannelType(NioDatagramChannel.class)
        .resolvedAddressTypes(ResolvedAddressTypes.IPV4_PREFERRED)
        .resolveCache(ttls)
        .cnameCache(NoopDnsCnameCache.INSTANCE)
        .authoritativeDnsServerCache(NoopAuthoritativeDnsServerCache.INSTANCE)
        .queryTimeoutMillis(queryTimeoutMillis)
        .nameServerProvider(nameServer != null
            ? new SingletonDnsServerAddressStreamProvider(nameServer)
            : DnsServerAddressStreamProviders.platformDefault())
        .build();
  }
}
