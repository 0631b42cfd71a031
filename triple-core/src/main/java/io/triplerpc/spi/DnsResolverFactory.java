package io.triplerpc.spi;

import java.net.InetSocketAddress;
import java.time.Duration;

/** Makes {@link DnsResolver}s: the transport's plug-in, found with {@link java.util.ServiceLoader}. */
public interface DnsResolverFactory {

  /**
   * A resolver asking {@code nameServer}, or the system's name servers ({@code /etc/resolv.conf}, its
   * search domains and {@code ndots} included) when null.
   */
  DnsResolver create(InetSocketAddress nameServer, Duration queryTimeout);
}
