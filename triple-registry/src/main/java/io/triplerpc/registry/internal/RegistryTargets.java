package io.triplerpc.registry.internal;

import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.StaticRegistry;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.TargetResolver;
import java.net.URI;

/** Client targets of this module: {@code static://host1:port1,host2:port2}. */
public final class RegistryTargets implements TargetResolver {

  @Override
  public boolean supports(String scheme) {
    return "static".equals(scheme);
  }

  @Override
  public ClusterFactory resolve(URI target) {
    String authority = target.getRawAuthority();
    if (authority == null || authority.isEmpty()) {
      throw new IllegalArgumentException("static:// needs addresses, as in static://host1:port1,host2:port2: " + target);
    }
    return Discovery.using(StaticRegistry.of(authority.split(","))).build();
  }
}
