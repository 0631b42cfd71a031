package io.triplerpc.registry;

import io.triplerpc.registry.internal.DirectorySettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A fixed list of addresses that serve every service, for a client that balances over known servers
 * without a registry (also the target {@code static://host1:port1,host2:port2}). Read-only.
 */
public final class StaticRegistry extends ReadOnlyRegistry {

  /** The application name the addresses are listed under. */
  public static final String APPLICATION = "static";

  private final List<ServiceInstance> instances;

  private StaticRegistry(List<ServiceInstance> instances) {
    this.instances = List.copyOf(instances);
  }

  /**
   * The servers at {@code addresses}, each {@code host:port} ({@code [v6]:port} for IPv6).
   *
   * @throws IllegalArgumentException if an address is malformed or none is given
   */
  public static StaticRegistry of(String... addresses) {
    if (addresses.length == 0) {
      throw new IllegalArgumentException("No address given");
    }
    List<ServiceInstance> instances = new ArrayList<>();
    for (String address : addresses) {
      String a = address.trim();
      int colon = a.lastIndexOf(':');
      if (colon <= 0 || colon == a.length() - 1) {
        throw new IllegalArgumentException("Address must be host:port: " + address);
      }
      String host = a.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      int port;
      try {
        port = Integer.parseInt(a.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Address must be host:port: " + address, e);
      }
      instances.add(ServiceInstance.of(APPLICATION, host, port, DirectorySettings.ANY_REVISION));
    }
    return new StaticRegistry(instances);
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    return CompletableFuture.completedFuture(Set.of(APPLICATION));
  }

  @Override
  public Subscription subscribe(String application, InstanceListener listener) {
    listener.onResync(APPLICATION.equals(application) ? instances : List.of());
    return () -> {};
  }

  @Override
  String kind() {
    return "A static address list";
  }

  @Override
  public void close() {}
}
