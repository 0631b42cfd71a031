package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.Discovery;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.TargetResolver;
import java.net.URI;

/**
 * Client targets {@code zookeeper://host1:2181,host2:2181[/root]}: discovery through a ZooKeeper
 * registry of the client's own, closed with the client.
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
    // Each client connects a registry of its own when it is built, and closes it with itself.
    return Discovery.connecting(() -> {
      ZooKeeperRegistry.Builder builder = ZooKeeperRegistry.builder(hosts);
      if (root != null) {
        builder.rootPath(root);
      }
      return builder.build();
    }).build();
  }
}
