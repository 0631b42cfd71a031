package io.triplerpc.registry.internal;

import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.StaticRegistry;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.TargetResolver;
import java.net.URI;

/**
 * Client targets of this module: {@code registry://host:port} (the standalone registry server,
 * through a {@link RemoteRegistry} of the client's own, closed with it) and
 * {@code static://host1:port1,host2:port2}.
 */
public final class RegistryTargets implements TargetResolver {

  @Override
  public boolean supports(String scheme) {
    return "static".equals(scheme) || "registry".equals(scheme);
  }

  @Override
  public ClusterFactory resolve(URI target) {
    String authority = target.getRawAuthority();
    if ("registry".equals(target.getScheme().toLowerCase(java.util.Locale.ROOT))) {
      if (target.getHost() == null || target.getPort() < 0) {
        throw new IllegalArgumentException("registry:// needs host:port, as in registry://127.0.0.1:7070: " + target);
      }
      String host = target.getHost().startsWith("[") ? target.getHost().substring(1, target.getHost().length() - 1)
          : target.getHost();
      int port = target.getPort();
      return Discovery.connecting(() -> RemoteRegistry.connect(host, port)).build();
    }
    if (authority == null || authority.isEmpty()) {
      throw new IllegalArgumentException("static:// needs addresses, as in static://host1:port1,host2:port2: " + target);
    }
    return Discovery.using(StaticRegistry.of(authority.split(","))).build();
  }
}
