package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registration;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.zookeeper.internal.proto.MetadataInfoV2;
import io.triplerpc.spi.ServerInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ZooKeeperRegistry.Layout#DUBBO} against real ZooKeeper: the znodes a Triple provider writes,
 * what Dubbo 3.3.6 wrote read back ({@link DubboCapture}), the mapping's compare-and-set, instances
 * leaving, metadata from the report and from a MetadataService, and malformed records.
 */
class DubboLayoutTest {

  private TestingServer zooKeeper;
  /** Holds znodes as a Dubbo process would: its ephemeral ones live as long as its session. */
  private CuratorFramework dubbo;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new TestingServer(true);
    dubbo = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
    dubbo.start();
    dubbo.blockUntilConnected(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    dubbo.close();
    zooKeeper.close();
  }

  private ZooKeeperRegistry registry() {
    ZooKeeperRegistry registry = ZooKeeperRegistry.builder(zooKeeper.getConnectString()).dubboLayout()
        .sessionTimeout(Duration.ofSeconds(5)).build();
    closeables.add(registry);
    return registry;
  }

  private static <T> T get(CompletableFuture<T> future) throws Exception {
    return future.get(30, TimeUnit.SECONDS);
  }

  private String data(String path) throws Exception {
    return new String(dubbo.getData().forPath(path), StandardCharsets.UTF_8);
  }

  @Test
  void theRootDubboSelectsDubbosLayout() {
    assertEquals(ZooKeeperRegistry.Layout.DUBBO,
        ZooKeeperRegistry.builder("127.0.0.1:1").rootPath("/dubbo").layoutInForce());
    assertEquals(ZooKeeperRegistry.Layout.TRIPLE, ZooKeeperRegistry.builder("127.0.0.1:1").layoutInForce());
    assertEquals(ZooKeeperRegistry.Layout.TRIPLE,
        ZooKeeperRegistry.builder("127.0.0.1:1").rootPath("/dubbo").layout(ZooKeeperRegistry.Layout.TRIPLE)
            .layoutInForce());
    assertEquals("/dubbo", ZooKeeperRegistry.builder("127.0.0.1:1").dubboLayout().rootPathInForce());
    assertEquals("/triple", ZooKeeperRegistry.builder("127.0.0.1:1").rootPathInForce());
  }

  @Test
  void aTripleProviderWritesTheZnodesDubboWrites() throws Exception {
    ZooKeeperRegistry registry = registry();
    Registration registration = Registration.to(registry).application("triple-app").required(true).build();
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Hello.class, caller -> "hi")
        .registration(registration)
        .build().start();
    int port = server.localAddress().getPort();
    ServiceInstance registered = registration.instance();
    assertTrue(registered.startTimeMillis() > 0, "registered with its start time");
    assertEquals(ServiceInstance.of("triple-app", "127.0.0.1", port, registered.revision())
        .withStartTime(registered.startTimeMillis()), registered);
    String instancePath = "/services/triple-app/127.0.0.1:" + port;
    try {
      Stat stat = dubbo.checkExists().forPath(instancePath);
      assertEquals(registry.client().getZookeeperClient().getZooKeeper().getSessionId(), stat.getEphemeralOwner(),
          "ephemeral, in the provider's session");
      DubboFormat.DubboInstance instance = DubboFormat.decodeInstance("triple-app", "127.0.0.1:" + port,
          dubbo.getData().forPath(instancePath));
      assertEquals(registered, instance.instance());
      assertTrue(instance.remoteMetadata(), "Dubbo consumers read a Triple provider's metadata from the report");

      assertEquals("triple-app", data("/dubbo/mapping/triple.test.zk.Hello"));
      String report = "/dubbo/metadata/triple-app/" + registered.revision();
      MetadataInfo metadata = DubboFormat.decodeMetadata("triple-app", registered.revision(),
          dubbo.getData().forPath(report));
      assertEquals(1, metadata.services().size());
      ServerInfo.Service hello = metadata.services().get(0);
      assertEquals(List.of("triple.test.zk.Hello", "", ""), List.of(hello.name(), hello.version(), hello.group()));
      assertTrue(hello.methods().contains("hello"), hello.methods().toString());
      assertEquals(List.of("127.0.0.1:" + port), dubbo.getChildren().forPath("/services/triple-app"));
    } finally {
      server.shutdown();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    assertNull(dubbo.checkExists().forPath(instancePath), "unregistered on shutdown");
    assertEquals("triple-app", data("/dubbo/mapping/triple.test.zk.Hello"), "the mapping stays, as Dubbo's does");
  }

  @Test
  void readsWhatDubboWrote() throws Exception {
    DubboCapture.load(dubbo);
    ZooKeeperRegistry registry = registry();

    assertEquals(List.of(DubboCapture.LOCAL, DubboCapture.REMOTE, DubboCapture.REMOTE_VERSION_GROUP,
        DubboCapture.TWO_PROTOCOLS), List.copyOf(get(registry.applications(DubboCapture.SERVICE))));
    assertEquals(Set.of(), get(registry.applications("no.such.Service")));

    RecordingListener remote = new RecordingListener();
    registry.subscribe(DubboCapture.REMOTE_VERSION_GROUP, remote);
    remote.awaitResyncs(1);
    ServiceInstance instance = remote.instances().get("127.0.0.1:50063");
    assertEquals(ServiceInstance.of(DubboCapture.REMOTE_VERSION_GROUP, "127.0.0.1", 50063,
        "abceb1ab3906b93c6ed914f3801d0e8f").withStartTime(java.time.Instant.parse("2026-11-26T02:48:58.019Z")
        .toEpochMilli()), instance);
    MetadataInfo metadata = get(registry.metadata(DubboCapture.REMOTE_VERSION_GROUP, instance.revision()));
    assertEquals(List.of(new ServerInfo.Service(DubboCapture.SERVICE, List.of("add", "hello"), "hessian2", "1.0.0",
        "g1")), metadata.services());

    RecordingListener two = new RecordingListener();
    registry.subscribe(DubboCapture.TWO_PROTOCOLS, two);
    two.awaitResyncs(1);
    assertEquals(Set.of("127.0.0.1:50064"), two.instances().keySet(), "the tri endpoint, not the instance port");
  }

  @Test
  void metadataOfALocalInstanceComesFromItsMetadataService() throws Exception {
    MetadataInfoV2 captured = parseV2(DubboCapture.metadataServiceAnswer(DubboCapture.LOCAL));
    FakeDubboProvider provider = new FakeDubboProvider(DubboCapture.LOCAL, captured, null);
    closeables.add(provider);
    provider.register(dubbo);
    ZooKeeperRegistry registry = registry();
    RecordingListener listener = new RecordingListener();
    registry.subscribe(DubboCapture.LOCAL, listener);
    listener.awaitResyncs(1);
    assertEquals(1, listener.instances().size());

    MetadataInfo metadata = get(registry.metadata(DubboCapture.LOCAL, FakeDubboProvider.CAPTURED_REVISION));

    assertEquals(List.of(new ServerInfo.Service(DubboCapture.SERVICE, List.of("add", "hello"), "hessian2,fastjson2",
        "1.0.0", "g1")), metadata.services());
    assertEquals(1, provider.metadataCalls.get());
    assertNull(dubbo.checkExists().forPath("/dubbo/metadata/" + DubboCapture.LOCAL), "nothing read from a report");
  }

  @Test
  void aMetadataServiceWithoutTheRevisionFailsTheFetchClearly() throws Exception {
    MetadataInfoV2 captured = parseV2(DubboCapture.metadataServiceAnswer(DubboCapture.LOCAL));
    FakeDubboProvider provider = new FakeDubboProvider(DubboCapture.LOCAL, captured, null);
    closeables.add(provider);
    // The instance names a revision its MetadataService does not have.
    DubboCapture.write(dubbo, provider.instancePath(), true, provider.instanceJson()
        .replace(FakeDubboProvider.CAPTURED_REVISION, "0badc0de0badc0de0badc0de0badc0de").getBytes(StandardCharsets.UTF_8));
    ZooKeeperRegistry registry = registry();
    RecordingListener listener = new RecordingListener();
    registry.subscribe(DubboCapture.LOCAL, listener);
    listener.awaitResyncs(1);

    ExecutionException e = assertThrows(ExecutionException.class,
        () -> get(registry.metadata(DubboCapture.LOCAL, "0badc0de0badc0de0badc0de0badc0de")));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertTrue(e.getCause().getMessage().startsWith("No metadata for capture-local at revision "
        + "0badc0de0badc0de0badc0de0badc0de from the MetadataService of its instances"), e.getCause().getMessage());
    assertTrue(e.getCause().getMessage().contains("UNKNOWN"), e.getCause().getMessage());
  }

  @Test
  void anInstanceServingOnlyMetadataServiceV1IsReportedAsSuch() throws Exception {
    String v1Only = DubboCapture.instance(DubboCapture.LOCAL).data().replace("\"meta-v\":\"2.0.0\",", "")
        .replace("\\\"protocol\\\":\\\"tri\\\"}\",\"dubbo.metadata.revision", "\\\"protocol\\\":\\\"dubbo\\\"}\","
            + "\"dubbo.metadata.revision");
    DubboCapture.write(dubbo, DubboCapture.instance(DubboCapture.LOCAL).path(), true,
        v1Only.getBytes(StandardCharsets.UTF_8));
    ZooKeeperRegistry registry = registry();
    RecordingListener listener = new RecordingListener();
    registry.subscribe(DubboCapture.LOCAL, listener);
    listener.awaitResyncs(1);

    ExecutionException e = assertThrows(ExecutionException.class,
        () -> get(registry.metadata(DubboCapture.LOCAL, FakeDubboProvider.CAPTURED_REVISION)));
    assertTrue(e.getCause().getMessage().contains("serves its metadata only through Dubbo's MetadataService v1 over"
        + " dubbo, which Triple does not call"), e.getCause().getMessage());
  }

  @Test
  void concurrentMappingsAllLandOnceEach() throws Exception {
    // A Dubbo application mapped the service already; twelve Triple applications, each with its own
    // session, map it at the same moment.
    DubboCapture.write(dubbo, "/dubbo/mapping/shared.Service", false, "dubbo-app".getBytes(StandardCharsets.UTF_8));
    List<ZooKeeperRegistry> registries = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      registries.add(registry());
    }
    for (ZooKeeperRegistry registry : registries) {
      get(registry.applications("shared.Service")); // connected
    }
    List<CompletableFuture<Void>> maps = new ArrayList<>();
    for (int i = 0; i < registries.size(); i++) {
      maps.add(registries.get(i).map("shared.Service", "app-" + i));
    }
    get(CompletableFuture.allOf(maps.toArray(new CompletableFuture<?>[0])));

    List<String> listed = DubboFormat.split(data("/dubbo/mapping/shared.Service"));
    assertEquals(13, listed.size(), listed.toString());
    assertEquals(13, new HashSet<>(listed).size(), "each once: " + listed);
    assertEquals("dubbo-app", listed.get(0), "what Dubbo wrote stays first");
    Set<String> expected = new HashSet<>(listed);
    assertEquals(expected, get(registries.get(0).applications("shared.Service")));

    int version = dubbo.checkExists().forPath("/dubbo/mapping/shared.Service").getVersion();
    get(registries.get(3).map("shared.Service", "app-3"));
    assertEquals(version, dubbo.checkExists().forPath("/dubbo/mapping/shared.Service").getVersion(),
        "mapping an application already listed writes nothing");
  }

  @Test
  void instancesLeaveOnUnregisterAndOnSessionLoss() throws Exception {
    ZooKeeperRegistry provider = registry();
    ZooKeeperRegistry consumer = registry();
    RecordingListener listener = new RecordingListener();
    consumer.subscribe("triple-app", listener);
    listener.awaitResyncs(1);
    ServiceInstance one = ServiceInstance.of("triple-app", "127.0.0.1", 50051, "0123456789abcdef01234567");
    ServiceInstance two = ServiceInstance.of("triple-app", "127.0.0.1", 50052, "0123456789abcdef01234567");
    get(provider.register(one));
    get(provider.register(two));
    listener.await("both", instances -> instances.size() == 2);

    get(provider.unregister(one));
    listener.await("one unregistered", instances -> instances.keySet().equals(Set.of("127.0.0.1:50052")));

    // A Dubbo provider's process dies: its session ends, its instance znode goes.
    DubboCapture.Znode captured = DubboCapture.instance(DubboCapture.REMOTE);
    CuratorFramework dubboProcess =
        CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
    dubboProcess.start();
    dubboProcess.blockUntilConnected(30, TimeUnit.SECONDS);
    DubboCapture.write(dubboProcess, captured.path(), true, captured.bytes());
    RecordingListener dubboListener = new RecordingListener();
    consumer.subscribe(DubboCapture.REMOTE, dubboListener);
    dubboListener.await("the Dubbo instance", instances -> instances.size() == 1);
    dubboProcess.close();
    dubboListener.await("the Dubbo instance gone", Map::isEmpty);

    // The Triple provider's session expires: consumers see it leave, then come back in its new session.
    KillSession.kill(provider.client().getZookeeperClient().getZooKeeper());
    listener.await("re-registered in the new session", instances -> instances.keySet().equals(Set.of("127.0.0.1:50052"))
        && listener.changes().stream().filter(c -> c.kind() == InstanceChange.Kind.REMOVED).count() == 2);
    assertEquals(List.of(), listener.violations());
  }

  @Test
  void malformedDubboRecordsAreSkippedAndWorkingAddressesStay() throws Exception {
    DubboCapture.Znode good = DubboCapture.instance(DubboCapture.REMOTE);
    DubboCapture.write(dubbo, good.path(), true, good.bytes());
    DubboCapture.write(dubbo, "/services/capture-remote/127.0.0.1:9", true,
        "{\"name\":\"capture-remote\",".getBytes(StandardCharsets.UTF_8));
    ZooKeeperRegistry registry = registry();
    RecordingListener listener = new RecordingListener();
    registry.subscribe(DubboCapture.REMOTE, listener);
    listener.awaitResyncs(1);
    assertEquals(Set.of("127.0.0.1:50062"), listener.instances().keySet(), "the malformed one is skipped");

    // The good one turns bad: what the consumer knew of it stays.
    dubbo.setData().forPath(good.path(), good.data().replace("\"payload\"", "\"payloadz\"")
        .getBytes(StandardCharsets.UTF_8));
    ServiceInstance newer = ServiceInstance.of(DubboCapture.REMOTE, "127.0.0.1", 50062, "ffffffffffffffffffffffffffffffff")
        .withStartTime(java.time.Instant.parse("2026-11-26T02:47:37.263Z").toEpochMilli());
    dubbo.setData().forPath(good.path(), good.data().replace("e6958f43da5883a84412057d2d6e60fd", newer.revision())
        .getBytes(StandardCharsets.UTF_8));
    listener.await("the later good write", instances -> newer.equals(instances.get("127.0.0.1:50062")));
    assertEquals(List.of(InstanceChange.Kind.UPDATED),
        listener.changes().stream().map(InstanceChange::kind).toList(), "the bad write changed nothing");

    // A malformed report fails the fetch, saying where and why.
    DubboCapture.write(dubbo, "/dubbo/metadata/capture-remote/" + newer.revision(), false,
        "{\"app\":\"capture-remote\",\"services\":[]}".getBytes(StandardCharsets.UTF_8));
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> get(registry.metadata(DubboCapture.REMOTE, newer.revision())));
    assertEquals("Malformed Dubbo metadata in /dubbo/metadata/capture-remote/" + newer.revision()
        + ": no services object", e.getCause().getMessage());
  }

  @Test
  void aTripleConsumerReadsATripleProvidersMetadataBackExactly() throws Exception {
    ZooKeeperRegistry provider = registry();
    MetadataInfo metadata = MetadataInfo.of("triple-app", List.of(
        new ServerInfo.Service("triple.demo.Greeter", List.of("SayHello", "Chat"), "proto", "2.0.0", ""),
        new ServerInfo.Service("shop.Orders", List.of("place"), "hessian2", "", "eu")));
    get(provider.publishMetadata(metadata));
    get(provider.publishMetadata(metadata));
    get(provider.register(ServiceInstance.of("triple-app", "127.0.0.1", 50051, metadata.revision())));

    ZooKeeperRegistry consumer = registry();
    RecordingListener listener = new RecordingListener();
    consumer.subscribe("triple-app", listener);
    listener.awaitResyncs(1);
    MetadataInfo read = get(consumer.metadata("triple-app", metadata.revision()));

    assertEquals(metadata.services(), read.services());
    assertEquals(metadata.revision(), read.revision());
    assertNotEquals(0, metadata.services().size());
    assertArrayEquals(DubboFormat.encodeMetadata(metadata),
        dubbo.getData().forPath("/dubbo/metadata/triple-app/" + metadata.revision()));
  }

  private static MetadataInfoV2 parseV2(String json) throws Exception {
    MetadataInfoV2.Builder builder = MetadataInfoV2.newBuilder();
    JsonFormat.parser().merge(json, builder);
    return builder.build();
  }
}
