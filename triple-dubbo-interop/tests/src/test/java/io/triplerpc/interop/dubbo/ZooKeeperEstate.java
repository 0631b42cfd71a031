package io.triplerpc.interop.dubbo;

import io.triplerpc.TripleServer;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;

/**
 * A real ZooKeeper (Curator's in-process server) and what a test starts around it: Triple servers, Dubbo peers,
 * registries and clients, all closed in the reverse order of their start, then ZooKeeper.
 */
final class ZooKeeperEstate implements AutoCloseable {

  private final TestingServer zooKeeper;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final List<TripleServer> servers = new ArrayList<>();

  ZooKeeperEstate() throws Exception {
    zooKeeper = new TestingServer(true);
  }

  String connectString() {
    return zooKeeper.getConnectString();
  }

  /** {@code closeable}, closed with the estate. */
  <T extends AutoCloseable> T add(T closeable) {
    closeables.add(closeable);
    return closeable;
  }

  /** {@code server}, started, shut down with the estate. */
  TripleServer serve(TripleServer server) {
    servers.add(server);
    return server;
  }

  List<TripleServer> servers() {
    return servers;
  }

  /** A registry in Dubbo's layout, with a 5 s session, closed with the estate. */
  ZooKeeperRegistry dubboRegistry() {
    return add(ZooKeeperRegistry.builder(connectString()).dubboLayout().sessionTimeout(Duration.ofSeconds(5)).build());
  }

  @Override
  public void close() throws Exception {
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    zooKeeper.close();
  }
}
