package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.ServiceInstance;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;

/** A three-member ensemble that loses a member: the registry carries on with the other two. */
class ZooKeeperEnsembleTest {

  @Test
  void losingTheConsumersEnsembleMemberLosesNoInstances() throws Exception {
    try (TestingCluster cluster = new TestingCluster(3)) {
      cluster.start();
      try (ZooKeeperRegistry provider = ZooKeeperRegistry.connect(cluster.getConnectString());
          ZooKeeperRegistry consumer = ZooKeeperRegistry.connect(cluster.getConnectString())) {
        ServiceInstance first = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
        provider.register(first).get(60, TimeUnit.SECONDS);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe("greeter", listener);
        listener.await("the first instance", instances -> instances.containsKey(first.address()));

        InstanceSpec member =
            cluster.findConnectionInstance(consumer.client().getZookeeperClient().getZooKeeper());
        assertTrue(cluster.killServer(member), "killed " + member);

        ServiceInstance second = ServiceInstance.of("greeter", "10.0.0.2", 50051, "rev1");
        provider.register(second).get(60, TimeUnit.SECONDS);
        listener.await("the second instance", instances -> instances.containsKey(second.address()));
        assertEquals(Set.of(first.address(), second.address()), listener.instances().keySet());
        assertEquals(List.of(), listener.violations());
      }
    }
  }
}
