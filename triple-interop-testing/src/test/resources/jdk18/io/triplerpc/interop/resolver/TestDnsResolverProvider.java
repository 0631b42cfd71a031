package io.triplerpc.interop.resolver;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.NoopAuthoritativeDnsServerCache;
import io.netty.resolver.dns.NoopDnsCache;
import io.netty.resolver.dns.NoopDnsCnameCache;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * The JVM's name resolver (JDK 18+, JEP 418) for a child JVM of GrpcJavaDnsTest: names under the
 * domain {@code triple.test.dns.domain} are asked of the DNS server at {@code triple.test.dns.server}
 * (host:port, over UDP, with Netty's resolver), every other lookup goes to the JDK's built-in
 * resolver. So a client in that JVM that resolves through {@code InetAddress} (grpc-java's
 * {@code dns:///} resolver does, and Triple's {@code host:port} addresses) asks the test's DNS server,
 * and waits as long as that server does not answer (up to {@code triple.test.dns.timeoutMillis}).
 *
 * <p>Not compiled by the build (the build targets Java 17, which lacks this SPI): the test compiles it
 * with a JDK 18 or newer and registers it in {@code META-INF/services} of a directory only the child's
 * class path holds. Each forwarded lookup is written to standard error, for the test's failure messages.
 */
public final class TestDnsResolverProvider extends InetAddressResolverProvider {

  public static final String SERVER = "triple.test.dns.server";
  public static final String DOMAIN = "triple.test.dns.domain";
  /** How long a lookup waits for the server's answer, in milliseconds; 5,000 by default. */
  public static final String TIMEOUT = "triple.test.dns.timeoutMillis";

  @Override
  public InetAddressResolver get(Configuration configuration) {
    String server = System.getProperty(SERVER);
    String domain = System.getProperty(DOMAIN);
    if (server == null || domain == null) {
      return configuration.builtinResolver();
    }
    int colon = server.lastIndexOf(':');
    InetSocketAddress address = new InetSocketAddress(
        server.substring(0, colon), Integer.parseInt(server.substring(colon + 1)));
    long timeoutMillis = Long.getLong(TIMEOUT, 5_000);
    return new Forwarding(configuration.builtinResolver(), address, domain.toLowerCase(Locale.ROOT), timeoutMillis);
  }

  @Override
  public String name() {
    return "triple-test-dns";
  }

  private static final class Forwarding implements InetAddressResolver {

    private final InetAddressResolver builtin;
    private final InetSocketAddress server;
    private final String domain;
    private final long timeoutMillis;
    private final EventLoopGroup group =
        new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("test-dns-resolver", true), NioIoHandler.newFactory());
    private final DnsNameResolver resolver;

    Forwarding(InetAddressResolver builtin, InetSocketAddress server, String domain, long timeoutMillis) {
      this.builtin = builtin;
      this.server = server;
      this.domain = domain;
      this.timeoutMillis = timeoutMillis;
      this.resolver = new DnsNameResolverBuilder(group.next())
          .datagramChannelType(NioDatagramChannel.class)
          .resolvedAddressTypes(ResolvedAddressTypes.IPV4_PREFERRED)
          // Every lookup the JDK makes reaches the server (the JDK keeps its own cache in front).
          .resolveCache(NoopDnsCache.INSTANCE)
          .cnameCache(NoopDnsCnameCache.INSTANCE)
          .authoritativeDnsServerCache(NoopAuthoritativeDnsServerCache.INSTANCE)
          .hostsFileEntriesResolver((name, types) -> null)
          .searchDomains(List.of())
          .ndots(1)
          .queryTimeoutMillis(timeoutMillis)
          .nameServerProvider(new SingletonDnsServerAddressStreamProvider(server))
          .build();
    }

    private boolean forwarded(String host) {
      String name = host.toLowerCase(Locale.ROOT);
      if (name.endsWith(".")) {
        name = name.substring(0, name.length() - 1);
      }
      return name.equals(domain) || name.endsWith("." + domain);
    }

    @Override
    public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
      if (!forwarded(host)) {
        return builtin.lookupByName(host, policy);
      }
      List<InetAddress> answered;
      try {
        answered = resolver.resolveAll(host).get(timeoutMillis * 2 + 5_000, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        System.err.println("test-dns-resolver: " + host + " from " + server + " failed: " + e.getCause());
        UnknownHostException unknown = new UnknownHostException(host + ": " + e.getCause().getMessage());
        unknown.initCause(e.getCause());
        throw unknown;
      } catch (InterruptedException | TimeoutException e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        UnknownHostException unknown = new UnknownHostException(host + ": no answer from " + server);
        unknown.initCause(e);
        throw unknown;
      }
      int characteristics = policy.characteristics();
      List<InetAddress> v4 = new ArrayList<>();
      List<InetAddress> v6 = new ArrayList<>();
      for (InetAddress address : answered) {
        if (address instanceof Inet4Address && (characteristics & LookupPolicy.IPV4) != 0) {
          v4.add(address);
        } else if (address instanceof Inet6Address && (characteristics & LookupPolicy.IPV6) != 0) {
          v6.add(address);
        }
      }
      List<InetAddress> result = new ArrayList<>();
      if ((characteristics & LookupPolicy.IPV6_FIRST) != 0) {
        result.addAll(v6);
        result.addAll(v4);
      } else {
        result.addAll(v4);
        result.addAll(v6);
      }
      System.err.println("test-dns-resolver: " + host + " from " + server + " -> " + result);
      if (result.isEmpty()) {
        throw new UnknownHostException(host + ": no address from " + server);
      }
      // A fresh InetAddress per lookup, under the name asked (as the built-in resolver returns them).
      List<InetAddress> named = new ArrayList<>();
      for (InetAddress address : result) {
        named.add(InetAddress.getByAddress(host, address.getAddress()));
      }
      return named.stream();
    }

    @Override
    public String lookupByAddress(byte[] address) throws UnknownHostException {
      return builtin.lookupByAddress(address);
    }
  }
}
