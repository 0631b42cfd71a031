package io.triplerpc.interop.dubbo;

import static io.triplerpc.interop.dubbo.DubboProcess.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.StreamObserver;
import io.triplerpc.interop.dubbo.api.Item;
import io.triplerpc.interop.dubbo.api.Order;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.interop.dubbo.api.ProtoService;
import io.triplerpc.interop.dubbo.proto.EchoReply;
import io.triplerpc.interop.dubbo.proto.EchoRequest;
import io.triplerpc.registry.Registration;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import io.triplerpc.testing.AwaitPeers;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Service discovery shared with a real Apache Dubbo 3.3.6 (its own JVM) through real ZooKeeper, in
 * Dubbo's application-level layout ({@code registry-type=service}): a Dubbo consumer finds and calls
 * Triple providers, a Triple consumer finds and calls Dubbo providers (metadata local, from their
 * MetadataServiceV2, and remote, from the report), one application of a Dubbo and a Triple instance is
 * balanced by a Triple and a Dubbo consumer, versions and groups select across both, and instances
 * that leave are dropped on both sides. Which instance served a call is read from the events each
 * recorded ({@code PlainService.record}).
 */
class DubboZooKeeperDiscoveryTest {

  private static final Duration PEERS = Duration.ofSeconds(60);
  private static final Item APPLE = new Item("apple", 2, new BigDecimal("1.50"));
  private static final Item PEAR = new Item("pear", 1, new BigDecimal("0.75"));
  private static final Order PLACED =
      new Order("ada", List.of(APPLE, PEAR), Order.Shipping.EXPRESS, new BigDecimal("3.75"), null);

  private TestingServer zooKeeper;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final List<TripleServer> servers = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new TestingServer(true);
  }

  @AfterEach
  void stop() throws Exception {
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    zooKeeper.close();
  }

  private String zk() {
    return zooKeeper.getConnectString();
  }

  private ZooKeeperRegistry registry() {
    ZooKeeperRegistry registry = ZooKeeperRegistry.builder(zk()).dubboLayout().sessionTimeout(Duration.ofSeconds(5))
        .build();
    closeables.add(registry);
    return registry;
  }

  /** A Triple provider of both interop services, registered as an instance of {@code application}. */
  private TripleServer tripleProvider(String application, TriplePlainService plain, String version, String group) {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PlainService.class, plain, version, group)
        .addService(ProtoService.class, new TripleProtoService(), version, group)
        .registration(Registration.to(registry()).application(application).required(true).build())
        .build().start();
    servers.add(server);
    return server;
  }

  private DubboProcess dubboProvider(String application, String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("--registry=" + zk(), "--application=" + application));
    args.addAll(List.of(options));
    DubboProcess dubbo = DubboProcess.provider(args.toArray(new String[0]));
    closeables.add(dubbo);
    return dubbo;
  }

  private DubboProcess dubboConsumer(String... options) throws Exception {
    DubboProcess dubbo = DubboProcess.discoveringConsumer(zk(), options);
    closeables.add(dubbo);
    return dubbo;
  }

  private TripleClient tripleConsumer() {
    TripleClient client = TripleClient.builder().address("zookeeper://" + zk() + "/dubbo").build();
    closeables.add(client);
    return client;
  }

  /** The events a Dubbo provider recorded, read over a direct connection. */
  private static List<String> recordedBy(DubboProcess provider) {
    try (TripleClient direct = TripleClient.builder().address("127.0.0.1", provider.port()).build()) {
      return direct.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10))).recorded();
    }
  }

  /** Whether the Dubbo consumer's call of {@code method} succeeds now. */
  private static boolean dubboCallSucceeds(DubboProcess consumer, String method, Object... args) {
    try {
      return consumer.call(PlainService.class, method, args).path("ok").asBoolean();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Whether {@code call} succeeds now through a Triple consumer (UNAVAILABLE while none is known). */
  private static boolean tripleCallSucceeds(Supplier<?> call) {
    try {
      call.get();
      return true;
    } catch (StatusException e) {
      if (e.status().code() != Status.Code.UNAVAILABLE) {
        throw e;
      }
      return false;
    }
  }

  /**
   * Every call type, in protobuf, hessian2 and fastjson2, with the peers found only through ZooKeeper:
   * a Triple consumer calls a Dubbo provider, and Dubbo consumers (one per serialization) call a Triple
   * provider.
   */
  @Test
  void everyCallTypeAndSerializationThroughSharedDiscovery() throws Exception {
    dubboProvider("dubbo-app", "--prefer-serialization=fastjson2,hessian2");
    TripleClient client = tripleConsumer();
    CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10));
    ProtoService proto = client.proxy(ProtoService.class, options);
    AwaitPeers.until(() -> tripleCallSucceeds(() -> proto.unary(EchoRequest.newBuilder().setText("x").build())),
        PEERS, "Triple finds the Dubbo provider");
    Observed<EchoReply> ticks = new Observed<>();
    proto.serverStream(EchoRequest.newBuilder().setText("tick").setCount(2).build(), ticks);
    assertEquals(List.of("tick#1", "tick#2"), ticks.messages().stream().map(EchoReply::getText).toList());
    Observed<EchoReply> joined = new Observed<>();
    StreamObserver<EchoRequest> parts = proto.clientStream(joined);
    parts.onNext(EchoRequest.newBuilder().setText("a").build());
    parts.onNext(EchoRequest.newBuilder().setText("b").build());
    parts.onCompleted();
    assertEquals("a+b", joined.messages().get(0).getText());
    Observed<EchoReply> echoed = new Observed<>();
    StreamObserver<EchoRequest> said = proto.bidi(echoed);
    said.onNext(EchoRequest.newBuilder().setText("hi").build());
    said.onCompleted();
    assertEquals("echo:hi", echoed.messages().get(0).getText());
    for (PlainService plain : List.of(client.proxy(PlainService.class, options),
        client.proxy(DubboFastjson2Test.PlainInFastjson2.class, options))) {
      assertEquals(PLACED, plain.place("ada", List.of(APPLE, PEAR), true));
      Observed<Item> counted = new Observed<>();
      plain.countdown(new Item("box", 1, BigDecimal.TEN), counted);
      assertEquals(List.of(new Item("box#1", 1, BigDecimal.TEN)), counted.messages());
      Observed<Order> collected = new Observed<>();
      StreamObserver<Item> items = plain.collect(collected);
      items.onNext(APPLE);
      items.onCompleted();
      assertEquals("stream", collected.messages().get(0).getCustomer());
      Observed<Item> shouted = new Observed<>();
      StreamObserver<Item> shouting = plain.shout(shouted);
      shouting.onNext(PEAR);
      shouting.onCompleted();
      assertEquals("PEAR", shouted.messages().get(0).getName());
    }

    tripleProvider("triple-app", new TriplePlainService(), "", "");
    for (String serialization : List.of("hessian2", "fastjson2")) {
      DubboProcess consumer = dubboConsumer("--serialization=" + serialization);
      AwaitPeers.until(() -> dubboCallSucceeds(consumer, "echo", "x"), PEERS, "Dubbo finds the Triple provider");
      JsonNode unary = consumer.call(ProtoService.class, "unary", EchoRequest.newBuilder().setText("p").build());
      assertTrue(unary.path("ok").asBoolean(), unary::toString);
      assertTrue(consumer.call(ProtoService.class, "serverStream",
          EchoRequest.newBuilder().setText("t").setCount(2).build()).path("result").size() == 2);
      assertTrue(consumer.call(ProtoService.class, "clientStream", EchoRequest.newBuilder().setText("a").build(),
          EchoRequest.newBuilder().setText("b").build()).path("ok").asBoolean());
      assertTrue(consumer.call(ProtoService.class, "bidi", EchoRequest.newBuilder().setText("c").build())
          .path("ok").asBoolean());
      assertEquals(PLACED, result(consumer.call(PlainService.class, "place", "ada", List.of(APPLE, PEAR), true),
          Order.class), serialization);
      assertEquals(List.of(new Item("box#1", 1, BigDecimal.TEN)), List.of(result(
          consumer.call(PlainService.class, "countdown", new Item("box", 1, BigDecimal.TEN)), Item[].class)));
      assertEquals("stream", result(consumer.call(PlainService.class, "collect", APPLE), Order[].class)[0].getCustomer());
      assertEquals("PEAR", result(consumer.call(PlainService.class, "shout", PEAR), Item[].class)[0].getName());
    }
  }

  @Test
  void aDubboConsumerFindsAndBalancesTripleProvidersAndDropsOneThatLeaves() throws Exception {
    TriplePlainService first = new TriplePlainService();
    TriplePlainService second = new TriplePlainService();
    tripleProvider("triple-app", first, "", "");
    TripleServer leaving = tripleProvider("triple-app", second, "", "");
    DubboProcess consumer = dubboConsumer();

    AwaitPeers.until(() -> dubboCallSucceeds(consumer, "echo", "hello"), PEERS, "the Dubbo consumer calls Triple");
    assertEquals("hello", result(consumer.call(PlainService.class, "echo", "hello"), String.class));
    JsonNode unary = consumer.call(ProtoService.class, "unary", EchoRequest.newBuilder().setText("proto").build());
    assertTrue(unary.path("ok").asBoolean(), unary::toString);
    for (int i = 0; i < 40; i++) {
      assertTrue(dubboCallSucceeds(consumer, "record", "call-" + i));
    }
    assertFalse(first.recorded().isEmpty(), "the first Triple instance was called");
    assertFalse(second.recorded().isEmpty(), "the second Triple instance was called");
    assertEquals(40, first.recorded().size() + second.recorded().size());

    leaving.shutdown();
    leaving.awaitTermination(Duration.ofSeconds(10));
    // Dubbo drops it when its ZooKeeper watch fires; until then a call may still pick it (retries 0).
    AwaitPeers.until(() -> {
      for (int i = 0; i < 10; i++) {
        if (!dubboCallSucceeds(consumer, "record", "after")) {
          return false;
        }
      }
      return true;
    }, PEERS, "every call reaches the Triple instance that stayed");
  }

  @Test
  void aTripleConsumerFindsDubboProvidersWhateverTheirMetadataType() throws Exception {
    DubboProcess local = dubboProvider("dubbo-local");
    DubboProcess remote = dubboProvider("dubbo-remote", "--metadata-type=remote");
    TripleClient client = tripleConsumer();
    PlainService plain = client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    ProtoService proto = client.proxy(ProtoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));

    AwaitPeers.until(() -> tripleCallSucceeds(() -> plain.echo("x")), PEERS, "Triple calls the Dubbo providers");
    assertEquals("unary:hi", proto.unary(EchoRequest.newBuilder().setText("hi").build()).getText());
    // The mapping names both applications; calls spread over both.
    AwaitPeers.until(() -> {
      plain.record("spread");
      return !recordedBy(local).isEmpty() && !recordedBy(remote).isEmpty();
    }, PEERS, "calls reach the Dubbo provider with local metadata and the one with remote metadata");

    remote.close();
    AwaitPeers.until(() -> {
      int before = recordedBy(local).size();
      for (int i = 0; i < 10; i++) {
        if (!tripleCallSucceeds(() -> {
          plain.record("after");
          return null;
        })) {
          return false;
        }
      }
      return recordedBy(local).size() == before + 10;
    }, PEERS, "every call reaches the Dubbo provider that stayed");
  }

  @Test
  void oneApplicationOfADubboAndATripleInstanceIsBalancedByBothKindsOfConsumer() throws Exception {
    TriplePlainService triple = new TriplePlainService();
    TripleServer tripleServer = tripleProvider("mixed-app", triple, "", "");
    DubboProcess dubbo = dubboProvider("mixed-app");

    PlainService viaTriple = tripleConsumer().proxy(PlainService.class,
        CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    AwaitPeers.until(() -> {
      tripleCallSucceeds(() -> {
        viaTriple.record("from-triple");
        return null;
      });
      return triple.recorded().contains("from-triple") && recordedBy(dubbo).contains("from-triple");
    }, PEERS, "the Triple consumer calls both instances of mixed-app");

    DubboProcess viaDubbo = dubboConsumer("--provided-by=mixed-app");
    AwaitPeers.until(() -> {
      dubboCallSucceeds(viaDubbo, "record", "from-dubbo");
      return triple.recorded().contains("from-dubbo") && recordedBy(dubbo).contains("from-dubbo");
    }, PEERS, "the Dubbo consumer calls both instances of mixed-app");

    // The Dubbo instance leaves: both consumers call the Triple instance alone.
    dubbo.close();
    AwaitPeers.until(() -> {
      int before = triple.recorded().size();
      for (int i = 0; i < 10; i++) {
        if (!tripleCallSucceeds(() -> {
          viaTriple.record("t");
          return null;
        }) || !dubboCallSucceeds(viaDubbo, "record", "d")) {
          return false;
        }
      }
      return triple.recorded().size() == before + 20;
    }, PEERS, "both consumers call only the Triple instance once the Dubbo one left");

    // The Triple instance leaves too: the Dubbo consumer has no provider left.
    tripleServer.shutdown();
    tripleServer.awaitTermination(Duration.ofSeconds(10));
    AwaitPeers.until(() -> !dubboCallSucceeds(viaDubbo, "echo", "anyone"), PEERS,
        "the Dubbo consumer finds no instance of mixed-app");
  }

  @Test
  void versionsAndGroupsSelectAcrossDubboAndTriple() throws Exception {
    TriplePlainService versioned = new TriplePlainService();
    tripleProvider("triple-v1", versioned, "1.0.0", "g1");
    DubboProcess dubboV1 = dubboProvider("dubbo-v1", "--version=1.0.0", "--group=g1");

    // A Dubbo consumer of 1.0.0/g1 reaches the Triple export of 1.0.0/g1 (and the Dubbo one).
    DubboProcess dubboConsumer = dubboConsumer("--version=1.0.0", "--group=g1");
    AwaitPeers.until(() -> {
      dubboCallSucceeds(dubboConsumer, "record", "v1");
      return versioned.recorded().contains("v1") && recordedBy(dubboV1).contains("v1");
    }, PEERS, "the versioned Dubbo consumer calls the Triple and the Dubbo export of 1.0.0/g1");

    // A Triple consumer of 1.0.0/g1 reaches both; one without version or group finds no instance.
    TripleClient client = tripleConsumer();
    PlainService v1 = client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10))
        .withServiceVersion("1.0.0").withServiceGroup("g1"));
    AwaitPeers.until(() -> {
      tripleCallSucceeds(() -> {
        v1.record("triple-v1");
        return null;
      });
      return versioned.recorded().contains("triple-v1") && recordedBy(dubboV1).contains("triple-v1");
    }, PEERS, "the versioned Triple consumer calls both exports of 1.0.0/g1");
    PlainService unversioned = client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    StatusException none = assertThrows(StatusException.class,
        () -> unversioned.echo("nobody"));
    assertEquals(Status.Code.UNAVAILABLE, none.status().code(), none::toString);
  }
}
