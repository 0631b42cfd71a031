package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleService;
import io.triplerpc.interop.dubbo.api.Item;
import io.triplerpc.interop.dubbo.api.Order;
import io.triplerpc.interop.dubbo.api.OutOfStock;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.interop.dubbo.api.ProtoService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadService;
import io.triplerpc.interop.dubbo.proto.EchoReply;
import io.triplerpc.interop.dubbo.proto.EchoRequest;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Triple's client calls a real Apache Dubbo 3.3.6 provider (its own JVM, Dubbo's class path) over
 * {@code tri://} on 127.0.0.1: every call type with protobuf messages and with hessian2 plain Java
 * types, several parameters, void, null, declared and runtime exceptions, attachments both ways, the
 * deadline, and a method the provider does not have.
 */
class TripleClientToDubboProviderTest {

  private static final Item APPLE = new Item("apple", 2, new BigDecimal("1.50"));
  private static final Item PEAR = new Item("pear", 1, new BigDecimal("0.75"));

  private static DubboProcess dubbo;
  private static TripleClient client;
  private static PlainService plain;
  private static ProtoService proto;

  @BeforeAll
  static void start() throws Exception {
    dubbo = DubboProcess.provider("--overloads");
    client = TripleClient.builder().address("127.0.0.1", dubbo.port()).build();
    CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10));
    plain = client.proxy(PlainService.class, options);
    proto = client.proxy(ProtoService.class, options);
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (dubbo != null) {
      dubbo.close();
    }
  }

  private static EchoRequest request(String text, int count) {
    return EchoRequest.newBuilder().setText(text).setCount(count).build();
  }

  private static EchoReply reply(String text, int index) {
    return EchoReply.newBuilder().setText(text).setIndex(index).build();
  }

  @Test
  void protobufUnary() {
    assertEquals(reply("unary:ada", 0), proto.unary(request("ada", 0)));
  }

  @Test
  void protobufServerStreaming() throws Exception {
    Observed<EchoReply> replies = new Observed<>();
    proto.serverStream(request("tick", 3), replies);
    assertEquals(List.of(reply("tick#1", 1), reply("tick#2", 2), reply("tick#3", 3)), replies.messages());
  }

  @Test
  void protobufClientStreaming() throws Exception {
    Observed<EchoReply> replies = new Observed<>();
    StreamObserver<EchoRequest> requests = proto.clientStream(replies);
    requests.onNext(request("a", 0));
    requests.onNext(request("b", 0));
    requests.onNext(request("c", 0));
    requests.onCompleted();
    assertEquals(List.of(reply("a+b+c", 3)), replies.messages());
  }

  @Test
  void protobufBidiStreaming() throws Exception {
    Observed<EchoReply> replies = new Observed<>();
    StreamObserver<EchoRequest> requests = proto.bidi(replies);
    requests.onNext(request("a", 0));
    requests.onNext(request("b", 0));
    requests.onCompleted();
    assertEquals(List.of(reply("echo:a", 1), reply("echo:b", 2)), replies.messages());
  }

  @Test
  void protobufStatusErrorArrivesWithItsCodeAndDescription() {
    StatusException e = assertThrows(StatusException.class, () -> proto.unary(request("invalid", 0)));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.status().code(), e::toString);
    // Dubbo's grpc-message is its exception's message, which puts the code's name before the description.
    assertEquals("INVALID_ARGUMENT : invalid text", e.status().description());
  }

  @Test
  void protobufRuntimeExceptionArrivesAsUnknownWithItsMessage() {
    StatusException e = assertThrows(StatusException.class, () -> proto.unary(request("crash", 0)));
    assertEquals(Status.Code.UNKNOWN, e.status().code(), e::toString);
    assertEquals("crash", e.status().description());
  }

  @Test
  void plainUnaryWithSeveralParameters() throws Exception {
    assertEquals(new Order("ada", List.of(APPLE, PEAR), Order.Shipping.EXPRESS, new BigDecimal("3.75"), null),
        plain.place("ada", List.of(APPLE, PEAR), true));
  }

  @Test
  void plainVoidAndNull() {
    String event = "event-" + UUID.randomUUID();
    plain.record(event);
    assertTrue(plain.recorded().contains(event));
    assertNull(plain.echo(null));
    assertEquals("", plain.echo(""));
  }

  @Test
  void declaredCheckedExceptionArrivesAsItself() {
    OutOfStock e = assertThrows(OutOfStock.class,
        () -> plain.place("ada", List.of(APPLE, new Item("unobtainium", 3, BigDecimal.ONE)), false));
    assertEquals("unobtainium", e.getItem());
    assertEquals(3, e.getMissing());
    assertEquals("unobtainium: short by 3", e.getMessage());
  }

  @Test
  void runtimeExceptionArrivesAsItself() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> plain.fail("boom"));
    assertEquals("boom", e.getMessage());
  }

  @Test
  void headersArriveAsAttachmentsAndResponseAttachmentsAsTrailers() {
    Headers headers = new Headers("x-tenant", "acme");
    PlainService withHeader = client.proxy(PlainService.class,
        CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)).withInterceptors(headers));
    assertEquals("acme", withHeader.attachment("x-tenant"));
    assertEquals("acme", headers.trailers().get("x-tenant-echo"), () -> "trailers " + headers.trailers());
  }

  @Test
  void theDeadlineReachesDubboAsItsTimeout() {
    long timeout = client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(3))).timeout();
    assertTrue(timeout > 2000 && timeout <= 3000, () -> "Dubbo saw a timeout of " + timeout + " ms");
  }

  @Test
  void aCallPastItsDeadlineFailsWithDeadlineExceeded() {
    PlainService impatient = client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(300, TimeUnit.MILLISECONDS));
    StatusException e = assertThrows(StatusException.class, () -> impatient.sleep(3000));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.status().code(), e::toString);
  }

  @Test
  void plainServerStreaming() throws Exception {
    Observed<Item> items = new Observed<>();
    plain.countdown(new Item("box", 3, BigDecimal.TEN), items);
    assertEquals(List.of(new Item("box#1", 1, BigDecimal.TEN), new Item("box#2", 1, BigDecimal.TEN),
        new Item("box#3", 1, BigDecimal.TEN)), items.messages());
  }

  @Test
  void plainClientStreaming() throws Exception {
    Observed<Order> orders = new Observed<>();
    StreamObserver<Item> items = plain.collect(orders);
    items.onNext(APPLE);
    items.onNext(PEAR);
    items.onCompleted();
    assertEquals(List.of(new Order("stream", List.of(APPLE, PEAR), Order.Shipping.STANDARD,
        new BigDecimal("3.75"), null)), orders.messages());
  }

  /**
   * Dubbo carries an exception as itself (wrapped, with tri-exception-code) only from unary methods
   * (GrpcHttp2ServerTransportListener.prepareUnaryServerCall); a stream's error is a status, UNKNOWN
   * with the exception's message.
   */
  @Test
  void anExceptionEndingAStreamArrivesAsUnknownWithItsMessage() throws Exception {
    Observed<Order> orders = new Observed<>();
    StreamObserver<Item> items = plain.collect(orders);
    items.onNext(new Item("unobtainium", 3, BigDecimal.ONE));
    items.onCompleted();
    StatusException e = assertInstanceOf(StatusException.class, orders.error());
    assertEquals(Status.Code.UNKNOWN, e.status().code(), e::toString);
    assertEquals("unobtainium: short by 3", e.status().description());
  }

  @Test
  void plainBidiStreaming() throws Exception {
    Observed<Item> shouted = new Observed<>();
    StreamObserver<Item> items = plain.shout(shouted);
    items.onNext(APPLE);
    items.onNext(PEAR);
    items.onCompleted();
    assertEquals(List.of(new Item("APPLE", 2, new BigDecimal("1.50")), new Item("PEAR", 1, new BigDecimal("0.75"))),
        shouted.messages());
  }

  /**
   * Triple's proxy sends each overload's parameter types as the request's {@code argTypes}, and Dubbo's
   * provider calls that overload: a primitive, a boxed, a POJO parameter, none.
   */
  @Test
  void eachOverloadReachesTheOneDubboPicksByItsArgTypes() {
    OverloadService overloads = client.proxy(OverloadService.class,
        CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    assertEquals("hello", overloads.greet());
    assertEquals("hello ada", overloads.greet("ada"));
    assertEquals("hello ada hello ada", overloads.greet("ada", 2));
    assertEquals("long 21", overloads.find(21L));
    assertEquals("Long 21", overloads.find(Long.valueOf(21)));
    assertEquals("Long null", overloads.find((Long) null));
    assertEquals(List.of(APPLE, new Item("apple junior", 1, APPLE.getPrice())), overloads.find(APPLE));
  }

  @Test
  void aServiceTheProviderDoesNotExportIsUnimplemented() {
    StatusException e = assertThrows(StatusException.class,
        () -> client.proxy(Unexported.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10))).hello());
    assertEquals(Status.Code.UNIMPLEMENTED, e.status().code(), e::toString);
  }

  /**
   * Dubbo 3.3.6 does not answer UNIMPLEMENTED for a method its service lacks: its
   * {@code DescriptorUtils.findTripleMethodDescriptor} finds no descriptor by name, then iterates the
   * service's (null) list of overloads of that name before it would throw its UnimplementedException,
   * and the NullPointerException goes out as UNKNOWN (HTTP 500, grpc-status 2) with its message.
   */
  @Test
  void aMethodTheProviderDoesNotHaveFailsWithDubbosNullPointerMessage() {
    StatusException e = assertThrows(StatusException.class, () -> plain.onlyInTriple());
    assertEquals(Status.Code.UNKNOWN, e.status().code(), e::toString);
    assertTrue(e.status().description().contains("\"methodDescriptors\" is null"), e::toString);
  }

  /** A service the provider does not export. */
  @TripleService(name = "io.triplerpc.interop.dubbo.api.Unexported")
  interface Unexported {
    String hello();
  }
}
