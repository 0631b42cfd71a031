package io.triplerpc.testing;

import java.net.InetAddress;
import java.util.List;

/**
 * A DNS name whose A records are loopback addresses, each with a server on one port: a
 * {@link TestDnsServer} naming them and the servers {@link OnePortServers} started. Closing stops the
 * servers, then the DNS server.
 */
public final class DnsNamedServers<S> implements AutoCloseable {

  /** Stops one server, waiting for it if it must. */
  @FunctionalInterface
  public interface Stopper<S> {
    void stop(S server) throws Exception;
  }

  private final TestDnsServer dns;
  private final List<S> servers;
  private final int port;
  private final Stopper<S> stopper;

  private DnsNamedServers(TestDnsServer dns, List<S> servers, int port, Stopper<S> stopper) {
    this.dns = dns;
    this.servers = servers;
    this.port = port;
    this.stopper = stopper;
  }

  /** Starts a server on each of {@code hosts} (IP literals), one port, and a DNS server naming them {@code name}. */
  public static <S> DnsNamedServers<S> start(String name, List<String> hosts, OnePortServers.Starter<S> starter,
      java.util.function.ToIntFunction<S> portOf, Stopper<S> stopper) throws Exception {
    TestDnsServer dns = TestDnsServer.start();
    try {
      InetAddress[] addresses = new InetAddress[hosts.size()];
      for (int i = 0; i < addresses.length; i++) {
        addresses[i] = InetAddress.getByName(hosts.get(i));
      }
      dns.set(name, addresses);
      List<S> servers = OnePortServers.start(hosts, starter, portOf, server -> {
        try {
          stopper.stop(server);
        } catch (Exception e) {
          throw new IllegalStateException("Could not stop " + server, e);
        }
      });
      return new DnsNamedServers<>(dns, servers, portOf.applyAsInt(servers.get(0)), stopper);
    } catch (Exception | Error e) {
      dns.close();
      throw e;
    }
  }

  public TestDnsServer dns() {
    return dns;
  }

  /** The one port of every server. */
  public int port() {
    return port;
  }

  public List<S> servers() {
    return servers;
  }

  @Override
  public void close() throws Exception {
    try {
      for (S server : servers) {
        stopper.stop(server);
      }
    } finally {
      dns.close();
    }
  }
}
