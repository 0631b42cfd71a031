package io.triplerpc.spi;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Asks name servers for a DNS name's A and AAAA records, asynchronously, caching nothing: what
 * discovery by DNS ({@code dns:///} targets) stands on. The transport provides it (an asynchronous
 * resolver needs its channels, and with {@code triple-netty-shaded} they are the shaded ones), found
 * with {@link ServiceLoader} as a {@link DnsResolverFactory} through {@link #create}. Thread-safe.
 */
public interface DnsResolver extends AutoCloseable {

  /**
   * A name's addresses and the lowest TTL among their records.
   *
   * @param addresses in the order of the answer; empty if it held none
   * @param minTtlSeconds 0 when there are no addresses
   */
  record Answer(List<InetAddress> addresses, long minTtlSeconds) {
    public Answer {
      addresses = List.copyOf(addresses);
    }
  }

  /**
   * A resolver of the transport on the class path.
   *
   * @param nameServer the one name server to ask, or null for the system's
   * @throws IllegalStateException if no transport on the class path offers one
   */
  static DnsResolver create(InetSocketAddress nameServer, Duration queryTimeout) {
    DnsResolverFactory factory = ServiceLoader.load(DnsResolverFactory.class, DnsResolver.class.getClassLoader())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("No DNS resolver on the class path: add"
            + " io.triplerpc:triple-transport-netty (or triple-netty-shaded), which resolves dns:/// targets"));
    return factory.create(nameServer, queryTimeout);
  }

  /**
   * The one thread on which answers complete, in order; callers may schedule their own work on it to
   * keep it ordered with the answers. Never an event loop that carries calls.
   */
  ScheduledExecutorService loop();

  /**
   * Resolves {@code name} now. The future completes on {@link #loop()}, with the answer or with the
   * resolver's error (an unknown name, a timeout). One resolution at a time per resolver: the TTL it
   * reports is that of its own records only if none overlaps it.
   */
  CompletableFuture<Answer> resolveAll(String name);

  /** Stops resolving; resolutions under way fail. */
  @Override
  void close();
}
