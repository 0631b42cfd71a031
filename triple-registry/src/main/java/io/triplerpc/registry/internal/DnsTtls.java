package io.triplerpc.registry.internal;

import io.netty.channel.EventLoop;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.resolver.dns.DnsCache;
import io.netty.resolver.dns.DnsCacheEntry;
import java.net.InetAddress;
import java.util.List;

/**
 * The resolver's cache that caches nothing (each resolution asks the name server) and notes the
 * lowest TTL of the addresses of the resolution under way: the resolver hands every address it
 * learns to its cache with its record's TTL, and this is the one place it does.
 */
public final class DnsTtls implements DnsCache {

  /** Seconds; Long.MAX_VALUE until an address came. */
  private volatile long minTtlSeconds = Long.MAX_VALUE;

  /** A resolution starts: forgets the last one's TTL. */
  public void reset() {
    minTtlSeconds = Long.MAX_VALUE;
  }

  /** The lowest TTL of the last resolution's addresses, in seconds; 0 if it had none. */
  public long minTtlSeconds() {
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
    // Resolutions do not overlap (the registry starts one at a time), so the read and write do not race.
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
