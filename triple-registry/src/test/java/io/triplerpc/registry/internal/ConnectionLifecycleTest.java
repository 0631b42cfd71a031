package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.triplerpc.spi.ServerInfo;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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

  /** A connection whose calls all end at once with OK, and which remembers being closed. */
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
      calls++;
      return new ClientCall<>() {
        @Override
        public void start(Listener<R> listener, Metadata headers) {
          listener.onClose(Status.OK, new Metadata());
        }

        @Override
        public void request(int count) {}

        @Override
        public void cancel(String message, Throwable cause) {}

        @Override
        public void halfClose() {}

        @Override
        public void sendMessage(Q message) {}
      };
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

  private static void call(RegistryCluster cluster, MethodDescriptor<Object, Object> method) {
    ClientCall<Object, Object> call = cluster.newCall(method, CallOptions.DEFAULT);
    call.start(new ClientCall.Listener<>() {}, new Metadata());
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
  void aCallCancelledBeforeItStartsEndsCancelledWithoutAConnection() {
    MethodDescriptor<Object, Object> method = whoMethod();
    MetadataInfo metadata = MetadataInfo.of("whoami-app", List.of(
        new ServerInfo.Service(method.serviceName(), List.of(method.methodName()), "hessian2", "", "")));
    registry.publishMetadata(metadata).join();
    registry.map(method.serviceName(), "whoami-app").join();
    registry.register(ServiceInstance.of("whoami-app", "10.0.0.1", 50051, metadata.revision())).join();
    DirectorySettings settings = new DirectorySettings(LoadBalancing.ROUND_ROBIN, 0, 0,
        TimeUnit.SECONDS.toNanos(1), true, TimeUnit.SECONDS.toNanos(5), (directory, changes) -> {});
    RegistryCluster cluster = new RegistryCluster(registry, false, connector, settings, null, Map.of());
    try {
      ClientCall<Object, Object> call = cluster.newCall(method, CallOptions.DEFAULT);
      call.cancel("changed my mind", null);
      Status[] closed = new Status[1];
      call.start(new ClientCall.Listener<>() {
        @Override
        public void onClose(Status status, Metadata trailers) {
          closed[0] = status;
        }
      }, new Metadata());
      assertEquals(Status.Code.CANCELLED, closed[0].code());
      assertEquals(0, opened.size(), "no connection for a call that never started");
    } finally {
      cluster.close();
    }
  }
}
