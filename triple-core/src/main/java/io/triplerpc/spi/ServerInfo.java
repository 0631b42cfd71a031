package io.triplerpc.spi;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * What a started server serves: where it listens and its services (built-in health and reflection
 * left out).
 *
 * @param localAddress the bound address (the wildcard address when bound to all interfaces)
 * @param services the services, in the order they were added
 */
public record ServerInfo(InetSocketAddress localAddress, List<Service> services) {

  public ServerInfo {
    Objects.requireNonNull(localAddress, "localAddress");
    services = List.copyOf(services);
  }

  /**
   * One served service.
   *
   * @param name the service name on the wire, such as {@code helloworld.Greeter}
   * @param methods its method names on the wire, in declaration order
   * @param serialization the media subtype of its messages: {@code proto}, {@code hessian2} or {@code json}
   * @param version the version of {@link io.triplerpc.TripleService}, or empty
   * @param group the group of {@link io.triplerpc.TripleService}, or empty
   */
  public record Service(String name, List<String> methods, String serialization, String version, String group) {

    public Service {
      Objects.requireNonNull(name, "name");
      methods = List.copyOf(methods);
      Objects.requireNonNull(serialization, "serialization");
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(group, "group");
    }
  }
}
