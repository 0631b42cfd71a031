package io.triplerpc.interop.dubbo;

import static io.triplerpc.interop.dubbo.DubboProcess.messages;
import static io.triplerpc.interop.dubbo.DubboProcess.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.triplerpc.CallOptions;
import io.triplerpc.Metadata;
import io.triplerpc.PeerInfo;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerContext;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.Item;
import io.triplerpc.interop.dubbo.api.Order;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.interop.dubbo.api.ProtoService;
import io.triplerpc.interop.dubbo.proto.EchoReply;
import io.triplerpc.interop.dubbo.proto.EchoRequest;
import io.triplerpc.testing.TestCertificates;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Triple over HTTP/3 with Apache Dubbo 3.3.6's own (its {@code dubbo-remoting-http3}, on Netty 4.2.2's QUIC), in
 * Dubbo's JVM: a Dubbo consumer that calls over HTTP/3 only (negotiation off) calls a Triple server, which sees
 * each call arrive over HTTP/3; and Triple's client, told to use HTTP/3 with no fallback, calls a Dubbo provider
 * serving HTTP/3 beside TCP. Protobuf (unary, server and bidi streaming, an error) and plain Java (a POJO method,
 * Hessian in Dubbo's wrapper) both ways.
 */
class DubboHttp3Test {

  private static final Item APPLE = new Item("apple", 2, new BigDecimal("1.50"));
  private static final Item PEAR = new Item("pear", 1, new BigDecimal("0.75"));
  private static final Order PLACED =
      new Order("ada", List.of(APPLE, PEAR), Order.Shipping.EXPRESS, new BigDecimal("3.75"), null);

  private static EchoRequest request(String text, int count) {
    return EchoRequest.newBuilder().setText(text).setCount(count).build();
  }

  private static EchoReply reply(String text, int index) {
    return EchoReply.newBuilder().setText(text).setIndex(index).build();
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class DubboConsumerToTripleServer {

    /** The application protocol of each call the server took, as its PeerInfo tells it. */
    private final Queue<String> protocols = new ConcurrentLinkedQueue<>();
    private TripleServer server;
    private DubboProcess dubbo;

    @BeforeAll
    void start() throws Exception {
      ServerInterceptor recordProtocol = new ServerInterceptor() {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
          protocols.add(ServerContext.current().peer().applicationProtocol());
          return next.startCall(call, headers);
        }
      };
      server = TripleServer.builder().host("127.0.0.1").port(0)
          .tls(TlsConfig.builder()
              .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
              .build())
          .http3()
          .intercept(recordProtocol)
          .addService(PlainService.class, new TriplePlainService())
          .addService(ProtoService.class, new TripleProtoService())
          .build().start();
      dubbo = DubboProcess.consumer("127.0.0.1:" + server.port(), "--http3");
    }

    @AfterAll
    void stop() throws Exception {
      if (dubbo != null) {
        dubbo.close();
      }
      if (server != null) {
        server.shutdownNow();
        server.awaitTermination(Duration.ofSeconds(10));
      }
    }

    @BeforeEach
    void forget() {
      protocols.clear();
    }

    private void assertEveryCallCameOverHttp3() {
      assertFalse(protocols.isEmpty(), "the server took no call");
      assertTrue(protocols.stream().allMatch(PeerInfo.HTTP_3::equals), protocols::toString);
    }

    @Test
    void protobufUnary() throws Exception {
      assertEquals(List.of(reply("unary:ada", 0)),
          messages(dubbo.call(ProtoService.class, "unary", request("ada", 0)), EchoReply.parser()));
      assertEveryCallCameOverHttp3();
    }

    @Test
    void protobufServerStreaming() throws Exception {
      assertEquals(List.of(reply("tick#1", 1), reply("tick#2", 2), reply("tick#3", 3)),
          messages(dubbo.call(ProtoService.class, "serverStream", request("tick", 3)), EchoReply.parser()));
      assertEveryCallCameOverHttp3();
    }

    @Test
    void protobufBidiStreaming() throws Exception {
      assertEquals(List.of(reply("echo:a", 1), reply("echo:b", 2)),
          messages(dubbo.call(ProtoService.class, "bidi", request("a", 0), request("b", 0)), EchoReply.parser()));
      assertEveryCallCameOverHttp3();
    }

    @Test
    void protobufStatusErrorArrivesWithItsCode() throws Exception {
      JsonNode answer = dubbo.call(ProtoService.class, "unary", request("invalid", 0));
      assertFalse(answer.path("ok").asBoolean(), answer::toString);
      assertEquals("INVALID_ARGUMENT", answer.path("status").asText(), answer::toString);
      assertEquals("invalid text", answer.path("description").asText(), answer::toString);
      assertEveryCallCameOverHttp3();
    }

    @Test
    void plainJavaPojoMethod() throws Exception {
      assertEquals(PLACED, result(dubbo.call(PlainService.class, "place", "ada", List.of(APPLE, PEAR), true),
          Order.class));
      assertEveryCallCameOverHttp3();
    }
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class TripleClientToDubboProvider {

    private DubboProcess dubbo;
    private TripleClient client;
    private PlainService plain;
    private ProtoService proto;

    @BeforeAll
    void start() throws Exception {
      dubbo = DubboProcess.provider("--http3", "--cert=" + TestCertificates.serverCertificate(),
          "--key=" + TestCertificates.serverKey());
      // HTTP/3 only: a call that cannot go over QUIC fails instead of falling back to TCP.
      client = TripleClient.builder().address("localhost", dubbo.port())
          .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build())
          .http3()
          .build();
      CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10));
      plain = client.proxy(PlainService.class, options);
      proto = client.proxy(ProtoService.class, options);
    }

    @AfterAll
    void stop() throws Exception {
      if (client != null) {
        client.close();
      }
      if (dubbo != null) {
        dubbo.close();
      }
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
    void protobufBidiStreaming() throws Exception {
      Observed<EchoReply> replies = new Observed<>();
      StreamObserver<EchoRequest> requests = proto.bidi(replies);
      requests.onNext(request("a", 0));
      requests.onNext(request("b", 0));
      requests.onCompleted();
      assertEquals(List.of(reply("echo:a", 1), reply("echo:b", 2)), replies.messages());
    }

    @Test
    void protobufStatusErrorArrivesWithItsCode() {
      StatusException e = assertThrows(StatusException.class, () -> proto.unary(request("invalid", 0)));
      assertEquals(Status.Code.INVALID_ARGUMENT, e.status().code(), e::toString);
    }

    @Test
    void plainJavaPojoMethod() throws Exception {
      assertEquals(PLACED, plain.place("ada", List.of(APPLE, PEAR), true));
    }
  }
}
