package io.triplerpc.registry.internal;

import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.DnsRegistry;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.TargetResolver;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * The client target {@code dns:///name:port}, as gRPC names it: every address of the name, balanced
 * round robin (gRPC's {@code round_robin}), through a {@link DnsRegistry} of the client's own, closed
 * with it. {@code dns://server:53/name:port} asks that name server instead of the system's;
 * {@code ?lb=pick_first} sends every call to one address while it serves (gRPC's {@code pick_first}),
 * {@code ?lb=round_robin} is the default.
 */
public final class DnsTargets implements TargetResolver {

  @Override
  public boolean supports(String scheme) {
    return "dns".equals(scheme);
  }

  @Override
  public ClusterFactory resolve(URI target) {
    String path = target.getRawPath();
    if (path == null || !path.startsWith("/") || path.length() < 2) {
      throw new IllegalArgumentException("A DNS target is dns:///name:port (or dns://server:53/name:port): " + target);
    }
    String hostPort = path.substring(1);
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostPort.length() - 1 || hostPort.startsWith("[")) {
      throw new IllegalArgumentException("A DNS target names its port, as in dns:///users.prod.svc:50051: " + target);
    }
    String name = hostPort.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(hostPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("A DNS target names its port, as in dns:///users.prod.svc:50051: " + target, e);
    }
    DnsRegistry.Builder registry = DnsRegistry.builder(name, port);
    if (target.getRawAuthority() != null && !target.getRawAuthority().isEmpty()) {
      if (target.getHost() == null) {
        throw new IllegalArgumentException("The name server of a DNS target is host or host:port: " + target);
      }
      String server = target.getHost().startsWith("[")
          ? target.getHost().substring(1, target.getHost().length() - 1) : target.getHost();
      registry.nameServer(new InetSocketAddress(server, target.getPort() < 0 ? 53 : target.getPort()));
    }
    return Discovery.connecting(registry::build).loadBalancing(balancing(target)).build();
  }

  private static LoadBalancing balancing(URI target) {
    String query = target.getRawQuery();
    if (query == null || query.equals("lb=round_robin")) {
      return LoadBalancing.ROUND_ROBIN;
    }
    if (query.equals("lb=pick_first")) {
      return LoadBalancing.PICK_FIRST;
    }
    throw new IllegalArgumentException("A DNS target's query is lb=round_robin (the default) or lb=pick_first: " + target);
  }
}
