package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Whoami;
import io.triplerpc.spi.Connection;
import io.triplerpc.spi.Connector;
import io.triplerpc.spi.Picker;
import io.triplerpc.spi.ServerInfo;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Connections open on an instance's first call, and close when it leaves or the cluster closes. */
class ConnectionLifecycleTest {

  private final InProcessRegistry registry = new InProcessRegistry();
  private final List<RecordingConnection> opened = new CopyOnWriteArrayList<>();
  private final Map<String, RecordingConnection> byAddress = new ConcurrentHashMap<>();

  @AfterEach
  void stop() {
    registry.close();
  }

  /** A connection that counts the attempts picked on it, and remembers being closed. */
  private final class RecordingConnection implements Connection {
    final InetSocketAddress address;
    volatile boolean closed;
    final CompletableFuture<Void> closing = new CompletableFuture<>();
    volatile int calls;

    RecordingConnection(InetSocketAddress address) {
      this.address = address;
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      throw new UnsupportedOperationException("the cluster's calls go through its pickers");
    }

    @Override
    public InetSocketAddress address() {
      return address;
    }

    @Override
    public boolean isActive() {
      return !closed;
    }

    @Override
    public WriteStats writeStats() {
      return new WriteStats(0, 0);
    }

    @Override
    public void close() {
      closed = true;
      closing.complete(null);
    }
  }

  private final Connector connector = address -> {
    RecordingConnection connection = new RecordingConnection(address);
    opened.add(connection);
    byAddress.put(address.getHostString() + ':' + address.getPort(), connection);
    return connection;
  };

  private static MethodDescriptor<Object, Object> whoMethod() {
    return ServiceDescriptor.of(Whoami.class).methods().get(0).descriptor();
  }

  /** One attempt, as the client's attempt loop makes it: a pick, then its end. */
  private static void call(RegistryCluster cluster, MethodDescriptor<Object, Object> method) {
    Picker.Pick pick = start(cluster, method);
    pick.attemptEnded(Status.OK);
  }

  private static Picker.Pick start(RegistryCluster cluster, MethodDescriptor<Object, Object> method) {
    Picker.Pick pick = cluster.picker(method, CallOptions.DEFAULT).pick(method, List.of());
    ((RecordingConnection) pick.connection()).calls++;
    return pick;
  }

  @Test
  void connectionsOpenOnFirstCallAndCloseWhenTheirInstanceLeaves() throws Exception {
    MethodDescriptor<Object, Object> method = whoMethod();
    MetadataInfo metadata = MetadataInfo.of("whoami-app", List.of(
        new ServerInfo.Service(method.serviceName(), List.of(method.methodName()), "hessian2", "", "")));
    registry.publishMetadata(metadata).join();
    registry.map(method.serviceName(), "whoami-app").join();
    ServiceInstance a = ServiceInstance.of("whoami-app", "10.0.0.1", 50051, metadata.revision());
    ServiceInstance b = ServiceInstance.of("whoami-app", "10.0.0.2", 50051, metadata.revision());
    registry.register(a).join();
    registry.register(b).join();

    DirectorySettings settings = new DirectorySettings(LoadBalancing.ROUND_ROBIN, 0, 0,
        TimeUnit.SECONDS.toNanos(1), true, TimeUnit.SECONDS.toNanos(5), (directory, changes) -> {});
    RegistryCluster cluster = new RegistryCluster(registry, false, connector, settings, null, Map.of());
    cluster.prepare(method.serviceName(), io.triplerpc.CallOptions.DEFAULT);
    // The registry's notifier delivers the first list; calls made before it would wait for it.
    CountDownLatch ready = new CountDownLatch(1);
    cluster.directory(method.serviceName()).whenReady(ready::countDown);
    assertTrue(ready.await(10, TimeUnit.SECONDS), "the first list arrives");
    assertEquals(2, cluster.directory(method.serviceName()).size(), "both instances are known");
    assertEquals(0, opened.size(), "no connection before the first call");

    for (int i = 0; i < 4; i++) {
      call(cluster, method);
    }
    assertEquals(2, opened.size(), "one connection per instance, opened by its first call");
    assertEquals(2, byAddress.get("10.0.0.1:50051").calls);
    assertEquals(2, byAddress.get("10.0.0.2:50051").calls);

    registry.unregister(a).join();
    byAddress.get("10.0.0.1:50051").closing.get(10, TimeUnit.SECONDS);
    assertTrue(!byAddress.get("10.0.0.2:50051").closed, "the other one stays open");
    call(cluster, method);
    assertEquals(3, byAddress.get("10.0.0.2:50051").calls);

    cluster.close();
    assertTrue(byAddress.get("10.0.0.2:50051").closed, "closing the client closes every connection");
  }

  @Test
  void anInstanceThatLeavesKeepsItsConnectionUntilItsLastAttemptEnds() throws Exception {
    MethodDescriptor<Object, Object> method = whoMethod();
    MetadataInfo metadata = MetadataInfo.of("whoami-app", List.of(
        new ServerInfo.Service(method.serviceName(), List.of(method.methodName()), "hessian2", "", "")));
    registry.publishMetadata(metadata).join();
    registry.map(method.serviceName(), "whoami-app").join();
    ServiceInstance a = ServiceInstance.of("whoami-app", "10.0.0.1", 50051, metadata.revision());
    registry.register(a).join();
    BlockingQueue<Integer> batches = new LinkedBlockingQueue<>();
    // Without empty-list protection: the instance's leaving empties the service.
    DirectorySettings settings = new DirectorySettings(LoadBalancing.ROUND_ROBIN, 0, 0,
        TimeUnit.SECONDS.toNanos(1), false, TimeUnit.SECONDS.toNanos(5), (directory, changes) -> batches.add(changes));
    RegistryCluster cluster = new RegistryCluster(registry, false, connector, settings, null, Map.of());
    try {
      cluster.prepare(method.serviceName(), CallOptions.DEFAULT);
      CountDownLatch ready = new CountDownLatch(1);
      cluster.directory(method.serviceName()).whenReady(ready::countDown);
      assertTrue(ready.await(10, TimeUnit.SECONDS), "the first list arrives");
      Picker.Pick inFlight = start(cluster, method);
      RecordingConnection connection = (RecordingConnection) inFlight.connection();
      registry.unregister(a).join();
      while (cluster.directory(method.serviceName()).size() > 0) {
        assertNotNull(batches.poll(10, TimeUnit.SECONDS), "the registry's change is applied");
      }
      assertTrue(!connection.closed, "an attempt in flight drains on it");
      inFlight.attemptEnded(Status.OK);
      connection.closing.get(10, TimeUnit.SECONDS);
      assertNull(cluster.picker(method, CallOptions.DEFAULT).pick(method, List.of()), "and no new attempt goes there");
    } finally {
      cluster.close();
    }
  }
}
