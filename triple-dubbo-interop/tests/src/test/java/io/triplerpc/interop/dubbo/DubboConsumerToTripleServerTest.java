package io.triplerpc.interop.dubbo;

import static io.triplerpc.interop.dubbo.DubboProcess.JSON;
import static io.triplerpc.interop.dubbo.DubboProcess.messages;
import static io.triplerpc.interop.dubbo.DubboProcess.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.Item;
import io.triplerpc.interop.dubbo.api.Order;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.interop.dubbo.api.ProtoService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadServices;
import io.triplerpc.interop.dubbo.proto.EchoReply;
import io.triplerpc.interop.dubbo.proto.EchoRequest;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real Apache Dubbo 3.3.6 consumer (its own JVM, Dubbo's class path, direct {@code tri://} URL to
 * 127.0.0.1, retries 0) calls Triple's server: every call type with protobuf messages and with
 * hessian2 plain Java types, several parameters, void, null, declared and runtime exceptions,
 * attachments both ways, the deadline, and a method the server does not have. Each test drives the
 * consumer with commands and reads what its Dubbo reference returned or threw.
 */
class DubboConsumerToTripleServerTest {

  private static final Item APPLE = new Item("apple", 2, new BigDecimal("1.50"));
  private static final Item PEAR = new Item("pear", 1, new BigDecimal("0.75"));

  /** Dubbo's {@code RpcException.TIMEOUT_EXCEPTION}. */
  private static final int RPC_TIMEOUT = 2;

  private static final TriplePlainService PLAIN = new TriplePlainService();
  private static TripleServer server;
  private static DubboProcess dubbo;

  @BeforeAll
  static void start() throws Exception {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PlainService.class, PLAIN)
        .addService(ProtoService.class, new TripleProtoService())
        .addService(OverloadService.class, new OverloadServices())
        .build().start();
    dubbo = DubboProcess.consumer("127.0.0.1:" + server.port(), "--overloads");
  }

  @AfterAll
  static void stop() throws Exception {
    if (dubbo != null) {
      dubbo.close();
    }
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  private static EchoRequest request(String text, int count) {
    return EchoRequest.newBuilder().setText(text).setCount(count).build();
  }

  private static EchoReply reply(String text, int index) {
    return EchoReply.newBuilder().setText(text).setIndex(index).build();
  }

  private static JsonNode failed(JsonNode answer) {
    assertFalse(answer.path("ok").asBoolean(), () -> "the call succeeded: " + answer);
    return answer;
  }

  /**
   * Dubbo's consumer names each overload by its parameter types ({@code argTypes}); Triple calls that one,
   * with a primitive, a boxed, a POJO parameter or none, and answers with its result type.
   */
  @Test
  void eachOverloadIsCalledAsItsParameterTypesName() throws Exception {
    OverloadServices expected = new OverloadServices();
    assertEquals(expected.greet(), result(dubbo.callOverload(OverloadService.class, "greet", List.of()), String.class));
    assertEquals(expected.greet("ada"),
        result(dubbo.callOverload(OverloadService.class, "greet", List.of("java.lang.String"), "ada"), String.class));
    assertEquals(expected.greet("ada", 3), result(dubbo.callOverload(OverloadService.class, "greet",
        List.of("java.lang.String", "int"), "ada", 3), String.class));
    assertEquals("long 21", result(dubbo.callOverload(OverloadService.class, "find", List.of("long"), 21), String.class));
    assertEquals("Long 21",
        result(dubbo.callOverload(OverloadService.class, "find", List.of("java.lang.Long"), 21), String.class));
    assertEquals("Long null", result(dubbo.callOverload(OverloadService.class, "find", List.of("java.lang.Long"),
        (Object) null), String.class));
    assertEquals(List.of(APPLE, new Item("apple junior", 1, APPLE.getPrice())), List.of(result(
        dubbo.callOverload(OverloadService.class, "find", List.of(Item.class.getName()), APPLE), Item[].class)));
  }

  /** Dubbo's generic calls ({@code $invoke}) name an overload by its parameter types, and reach that one. */
  @Test
  void aGenericCallReachesTheOverloadItsTypesName() throws Exception {
    assertEquals("long 21", result(dubbo.generic(OverloadService.class, "find", new String[] {"long"}, 21),
        String.class));
    assertEquals("Long 21", result(dubbo.generic(OverloadService.class, "find", new String[] {"java.lang.Long"}, 21),
        String.class));
    assertEquals("hello ada hello ada", result(dubbo.generic(OverloadService.class, "greet",
        new String[] {"java.lang.String", "int"}, "ada", 2), String.class));
  }

  @Test
  void protobufUnary() throws Exception {
    assertEquals(List.of(reply("unary:ada", 0)),
        messages(dubbo.call(ProtoService.class, "unary", request("ada", 0)), EchoReply.parser()));
  }

  @Test
  void protobufServerStreaming() throws Exception {
    assertEquals(List.of(reply("tick#1", 1), reply("tick#2", 2), reply("tick#3", 3)),
        messages(dubbo.call(ProtoService.class, "serverStream", request("tick", 3)), EchoReply.parser()));
  }

  @Test
  void protobufClientStreamingFromDubbosBidiShape() throws Exception {
    assertEquals(List.of(reply("a+b+c", 3)), messages(dubbo.call(ProtoService.class, "clientStream",
        request("a", 0), request("b", 0), request("c", 0)), EchoReply.parser()));
  }

  @Test
  void protobufBidiStreaming() throws Exception {
    assertEquals(List.of(reply("echo:a", 1), reply("echo:b", 2)),
        messages(dubbo.call(ProtoService.class, "bidi", request("a", 0), request("b", 0)), EchoReply.parser()));
  }

  @Test
  void protobufStatusErrorArrivesWithItsCode() throws Exception {
    JsonNode answer = failed(dubbo.call(ProtoService.class, "unary", request("invalid", 0)));
    // Dubbo's reference throws an RpcException whose cause's cause is the StatusRpcException.
    assertEquals("org.apache.dubbo.rpc.RpcException", answer.path("exception").asText(), answer::toString);
    assertEquals("INVALID_ARGUMENT", answer.path("status").asText(), answer::toString);
    assertEquals("invalid text", answer.path("description").asText(), answer::toString);
  }

  @Test
  void protobufRuntimeExceptionArrivesAsUnknown() throws Exception {
    JsonNode answer = failed(dubbo.call(ProtoService.class, "unary", request("crash", 0)));
    assertEquals("UNKNOWN", answer.path("status").asText(), answer::toString);
    assertEquals("crash", answer.path("description").asText(), answer::toString);
  }

  @Test
  void plainUnaryWithSeveralParameters() throws Exception {
    assertEquals(new Order("ada", List.of(APPLE, PEAR), Order.Shipping.EXPRESS, new BigDecimal("3.75"), null),
        result(dubbo.call(PlainService.class, "place", "ada", List.of(APPLE, PEAR), true), Order.class));
  }

  @Test
  void plainVoidAndNull() throws Exception {
    String event = "event-" + UUID.randomUUID();
    JsonNode recorded = dubbo.call(PlainService.class, "record", event);
    assertTrue(recorded.path("ok").asBoolean(), recorded::toString);
    assertTrue(recorded.get("result").isNull(), recorded::toString);
    assertTrue(PLAIN.recorded().contains(event));
    assertNull(result(dubbo.call(PlainService.class, "echo", (Object) null), String.class));
    assertEquals("", result(dubbo.call(PlainService.class, "echo", ""), String.class));
  }

  @Test
  void declaredCheckedExceptionArrivesAsItself() throws Exception {
    JsonNode answer = failed(dubbo.call(PlainService.class, "place", "ada",
        List.of(APPLE, new Item("unobtainium", 3, BigDecimal.ONE)), false));
    assertEquals("io.triplerpc.interop.dubbo.api.OutOfStock", answer.path("exception").asText(), answer::toString);
    assertEquals("unobtainium: short by 3", answer.path("message").asText(), answer::toString);
    assertEquals(JSON.readTree("{\"item\":\"unobtainium\",\"missing\":3}"), answer.get("fields"), answer::toString);
  }

  @Test
  void runtimeExceptionArrivesAsItself() throws Exception {
    JsonNode answer = failed(dubbo.call(PlainService.class, "fail", "boom"));
    assertEquals("java.lang.IllegalStateException", answer.path("exception").asText(), answer::toString);
    assertEquals("boom", answer.path("message").asText(), answer::toString);
  }

  @Test
  void attachmentsArriveAsHeadersAndTrailersAsResponseAttachments() throws Exception {
    JsonNode answer = dubbo.callWith(PlainService.class, "attachment", Map.of("x-tenant", "acme"), 0, "x-tenant");
    assertEquals("acme", result(answer, String.class));
    assertEquals("acme", answer.path("attachments").path("x-tenant-echo").asText(), answer::toString);
  }

  @Test
  void dubbosTimeoutReachesTripleAsTheDeadline() throws Exception {
    long timeout = result(dubbo.callWith(PlainService.class, "timeout", Map.of(), 3000), Long.class);
    assertTrue(timeout > 2000 && timeout <= 3000, () -> "Triple saw a deadline " + timeout + " ms away");
  }

  /**
   * Both sides keep the deadline, so whichever timer fires first ends the call: Dubbo's own (its timeout,
   * code 2, caused by a TimeoutException) or Triple's, which resets the stream with DEADLINE_EXCEEDED. On
   * a loaded machine either may win.
   */
  @Test
  void aCallPastItsTimeoutFailsWithDubbosTimeoutOrTheServersDeadline() throws Exception {
    JsonNode answer = failed(dubbo.callWith(PlainService.class, "sleep", Map.of(), 300, 3000));
    assertEquals("org.apache.dubbo.rpc.RpcException", answer.path("exception").asText(), answer::toString);
    if (answer.path("rpcCode").asInt() == RPC_TIMEOUT) {
      assertEquals("java.util.concurrent.TimeoutException", answer.path("cause").asText(), answer::toString);
    } else {
      assertEquals("DEADLINE_EXCEEDED", answer.path("status").asText(), answer::toString);
    }
  }

  @Test
  void plainServerStreaming() throws Exception {
    assertEquals(List.of(new Item("box#1", 1, BigDecimal.TEN), new Item("box#2", 1, BigDecimal.TEN),
        new Item("box#3", 1, BigDecimal.TEN)),
        List.of(result(dubbo.call(PlainService.class, "countdown", new Item("box", 3, BigDecimal.TEN)), Item[].class)));
  }

  @Test
  void plainClientStreamingFromDubbosBidiShape() throws Exception {
    assertEquals(List.of(new Order("stream", List.of(APPLE, PEAR), Order.Shipping.STANDARD, new BigDecimal("3.75"), null)),
        List.of(result(dubbo.call(PlainService.class, "collect", APPLE, PEAR), Order[].class)));
  }

  /** As from Dubbo's provider: a stream's error is a status, UNKNOWN with the exception's message. */
  @Test
  void anExceptionEndingAStreamArrivesAsUnknownWithItsMessage() throws Exception {
    JsonNode answer = failed(dubbo.call(PlainService.class, "collect", new Item("unobtainium", 3, BigDecimal.ONE)));
    assertEquals("UNKNOWN", answer.path("status").asText(), answer::toString);
    assertEquals("unobtainium: short by 3", answer.path("description").asText(), answer::toString);
  }

  @Test
  void plainBidiStreaming() throws Exception {
    assertEquals(List.of(new Item("APPLE", 2, new BigDecimal("1.50")), new Item("PEAR", 1, new BigDecimal("0.75"))),
        List.of(result(dubbo.call(PlainService.class, "shout", APPLE, PEAR), Item[].class)));
  }

  @Test
  void aMethodTheServerDoesNotHaveIsUnimplemented() throws Exception {
    JsonNode answer = failed(dubbo.call(PlainService.class, "onlyInDubbo"));
    assertEquals("UNIMPLEMENTED", answer.path("status").asText(), answer::toString);
    assertEquals("Method not found: io.triplerpc.interop.dubbo.api.PlainService/onlyInDubbo",
        answer.path("description").asText(), answer::toString);
  }
}
