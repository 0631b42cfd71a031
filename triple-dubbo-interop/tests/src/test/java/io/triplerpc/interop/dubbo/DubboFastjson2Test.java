package io.triplerpc.interop.dubbo;

import static io.triplerpc.interop.dubbo.DubboProcess.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.triplerpc.CallOptions;
import io.triplerpc.ForwardingServerCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.interop.dubbo.api.Item;
import io.triplerpc.interop.dubbo.api.Order;
import io.triplerpc.interop.dubbo.api.OutOfStock;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadServices;
import io.triplerpc.serialization.wrapper.InSerialization;
import io.triplerpc.serialization.wrapper.OverloadedArguments;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * Plain Java calls of every type in fastjson2 (Dubbo's JSONB), over the wire, both ways: a Triple proxy
 * whose interface says fastjson2 calls a Dubbo provider whose protocol serializes with fastjson2, and a
 * Dubbo consumer whose references say fastjson2 calls a Triple server, which records the serialization
 * each request came in.
 */
class DubboFastjson2Test {

  /** Triple's view of the service, in fastjson2. */
  @TripleService(name = "io.triplerpc.interop.dubbo.api.PlainService", serialization = "fastjson2")
  interface PlainInFastjson2 extends PlainService {}

  /** Triple's view of the overloaded service, in fastjson2. */
  @TripleService(name = "io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadService", serialization = "fastjson2")
  interface OverloadsInFastjson2 extends OverloadService {}

  private static final Item APPLE = new Item("apple", 2, new BigDecimal("1.50"));
  private static final Item PEAR = new Item("pear", 1, new BigDecimal("0.75"));
  private static final Order PLACED =
      new Order("ada", List.of(APPLE, PEAR), Order.Shipping.EXPRESS, new BigDecimal("3.75"), null);

  @Test
  void aTripleProxyCallsADubboProviderInFastjson2() throws Exception {
    try (DubboProcess dubbo = DubboProcess.provider("--serialization=fastjson2", "--prefer-serialization=fastjson2",
        "--overloads");
        TripleClient client = TripleClient.builder().address("127.0.0.1", dubbo.port()).build()) {
      PlainService plain = client.proxy(PlainInFastjson2.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
      assertEquals(PLACED, plain.place("ada", List.of(APPLE, PEAR), true));
      String event = "event-" + UUID.randomUUID();
      plain.record(event);
      assertTrue(plain.recorded().contains(event));
      assertNull(plain.echo(null));
      OutOfStock refused = assertThrows(OutOfStock.class,
          () -> plain.place("ada", List.of(new Item("unobtainium", 3, BigDecimal.ONE)), false));
      assertEquals("unobtainium: short by 3", refused.getMessage());

      Observed<Item> counted = new Observed<>();
      plain.countdown(new Item("box", 2, BigDecimal.TEN), counted);
      assertEquals(List.of(new Item("box#1", 1, BigDecimal.TEN), new Item("box#2", 1, BigDecimal.TEN)),
          counted.messages());
      Observed<Order> collected = new Observed<>();
      StreamObserver<Item> items = plain.collect(collected);
      items.onNext(APPLE);
      items.onNext(PEAR);
      items.onCompleted();
      assertEquals(List.of(new Order("stream", List.of(APPLE, PEAR), Order.Shipping.STANDARD, new BigDecimal("3.75"),
          null)), collected.messages());
      Observed<Item> shouted = new Observed<>();
      StreamObserver<Item> shouting = plain.shout(shouted);
      shouting.onNext(APPLE);
      shouting.onCompleted();
      assertEquals(List.of(new Item("APPLE", 2, new BigDecimal("1.50"))), shouted.messages());

      OverloadService overloads =
          client.proxy(OverloadsInFastjson2.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
      assertEquals("hello ada hello ada", overloads.greet("ada", 2));
      assertEquals("long 21", overloads.find(21L));
      assertEquals("Long 21", overloads.find(Long.valueOf(21)));
      assertEquals(List.of(APPLE, new Item("apple junior", 1, APPLE.getPrice())), overloads.find(APPLE));
    }
  }

  @Test
  void aDubboConsumerCallsATripleServerInFastjson2() throws Exception {
    Queue<String> serializations = new ConcurrentLinkedQueue<>();
    ServerInterceptor recording = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        return new ForwardingServerCallListener<>(next.startCall(call, headers)) {
          @Override
          public void onMessage(Q message) {
            if (message instanceof InSerialization<?> in) {
              serializations.add(in.serialization().name());
            } else if (message instanceof OverloadedArguments.Chosen chosen
                && chosen.arguments() instanceof InSerialization<?> in) {
              // An overloaded name's request names its overload too.
              serializations.add(in.serialization().name());
            }
            super.onMessage(message);
          }
        };
      }
    };
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0).intercept(recording)
        .addService(PlainService.class, new TriplePlainService())
        .addService(OverloadService.class, new OverloadServices()).build().start();
    try (DubboProcess dubbo = DubboProcess.consumer("127.0.0.1:" + server.port(), "--serialization=fastjson2",
        "--overloads")) {
      assertEquals(PLACED, result(dubbo.call(PlainService.class, "place", "ada", List.of(APPLE, PEAR), true), Order.class));
      assertTrue(dubbo.call(PlainService.class, "echo", (Object) null).path("result").isNull());
      JsonNode refused = dubbo.call(PlainService.class, "place", "ada", List.of(new Item("unobtainium", 3, BigDecimal.ONE)),
          false);
      assertFalse(refused.path("ok").asBoolean(), refused::toString);
      assertEquals(OutOfStock.class.getName(), refused.path("exception").asText(), refused::toString);
      assertEquals(List.of(new Item("box#1", 1, BigDecimal.TEN)),
          List.of(result(dubbo.call(PlainService.class, "countdown", new Item("box", 1, BigDecimal.TEN)), Item[].class)));
      assertEquals(List.of(new Order("stream", List.of(APPLE, PEAR), Order.Shipping.STANDARD, new BigDecimal("3.75"), null)),
          List.of(result(dubbo.call(PlainService.class, "collect", APPLE, PEAR), Order[].class)));
      assertEquals(List.of(new Item("PEAR", 1, new BigDecimal("0.75"))),
          List.of(result(dubbo.call(PlainService.class, "shout", PEAR), Item[].class)));
      assertEquals("long 21", result(dubbo.callOverload(OverloadService.class, "find", List.of("long"), 21),
          String.class));
      assertEquals("Long 21", result(dubbo.callOverload(OverloadService.class, "find", List.of("java.lang.Long"), 21),
          String.class));
      assertEquals(List.of(APPLE, new Item("apple junior", 1, APPLE.getPrice())), List.of(result(
          dubbo.callOverload(OverloadService.class, "find", List.of(Item.class.getName()), APPLE), Item[].class)));
      assertEquals(Set.of("fastjson2"), Set.copyOf(serializations), "every request came in fastjson2");
      assertEquals(10, serializations.size(),
          "place, echo, place, countdown, two collected items, one shouted, three overloads");
    } finally {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }
}
