package io.triplerpc.registry.zookeeper;

import org.apache.curator.framework.CuratorFramework;

/** Reaches a {@link ZooKeeperRegistry}'s Curator client, so a test elsewhere can break its session. */
public final class ZooKeeperSessions {

  private ZooKeeperSessions() {}

  /** The registry's Curator client (one ZooKeeper session). */
  public static CuratorFramework client(ZooKeeperRegistry registry) {
    return registry.client();
  }
}
