package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.Discovery;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.TargetResolver;
import java.net.URI;

/**
 * Client targets {@code zookeeper://host1:2181,host2:2181[/root][?layout=dubbo|triple]}: discovery
 * through a ZooKeeper registry of the client's own, closed with the client. The root {@code /dubbo}
 * (or {@code layout=dubbo}) reads Apache Dubbo 3.3's layout, so {@code zookeeper://zk1:2181/dubbo}
 * finds Dubbo providers; see {@link ZooKeeperRegistry.Builder#rootPath}.
 */
public final class ZooKeeperTargets implements TargetResolver {

  @Override
  public boolean supports(String scheme) {
    return "zookeeper".equals(scheme) || "zk".equals(scheme);
  }

  @Override
  public ClusterFactory resolve(URI target) {
    String hosts = target.getRawAuthority();
    if (hosts == null || hosts.isEmpty()) {
      throw new IllegalArgumentException(
          "zookeeper:// needs the ensemble, as in zookeeper://zk1:2181,zk2:2181: " + target);
    }
    String path = target.getPath();
    String root = path != null && !path.isEmpty() && !path.equals("/") ? path : null;
    ZooKeeperRegistry.Layout layout = layoutOf(target);
    // Each client connects a registry of its own when it is built, and closes it with itself.
    return Discovery.connecting(() -> {
      ZooKeeperRegistry.Builder builder = ZooKeeperRegistry.builder(hosts);
      if (root != null) {
        builder.rootPath(root);
      }
      if (layout != null) {
        builder.layout(layout);
      }
      return builder.build();
    }).build();
  }

  /** The query's {@code layout}, or null if it names none. */
  private static ZooKeeperRegistry.Layout layoutOf(URI target) {
    String query = target.getRawQuery();
    if (query == null || query.isEmpty()) {
      return null;
    }
    ZooKeeperRegistry.Layout layout = null;
    for (String parameter : query.split("&")) {
      int eq = parameter.indexOf('=');
      String name = eq < 0 ? parameter : parameter.substring(0, eq);
      String value = eq < 0 ? "" : parameter.substring(eq + 1);
      if (!name.equals("layout")) {
        throw new IllegalArgumentException("Unknown parameter '" + name + "' in " + target + " (known: layout)");
      }
      switch (value) {
        case "dubbo" -> layout = ZooKeeperRegistry.Layout.DUBBO;
        case "triple" -> layout = ZooKeeperRegistry.Layout.TRIPLE;
        default -> throw new IllegalArgumentException("layout is dubbo or triple, not '" + value + "': " + target);
      }
    }
    return layout;
  }
}
