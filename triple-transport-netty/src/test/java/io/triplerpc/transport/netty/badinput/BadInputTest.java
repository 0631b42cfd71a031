package io.triplerpc.transport.netty.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Malformed and hostile requests from a scripted HTTP/2 peer: each gets a precise answer, and the
 * same connection then serves a valid call.
 */
class BadInputTest {

  private static final String ECHO = "/triple.test.EchoService/echo";
  private static final int MAX_MESSAGE = 1024;

  private final EchoServiceImpl service = new EchoServiceImpl();
  private TripleServer server;
  private RawHttp2Client peer;

  @BeforeEach
  void start() throws Exception {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, service)
        .maxInboundMessageSize(MAX_MESSAGE)
        .build()
        .start();
    peer = new RawHttp2Client(server.port());
  }

  @AfterEach
  void stop() throws Exception {
    // Whatever the case did, the connection still serves a valid call.
    RawHttp2Client.Exchange ok = peer.send(peer.grpcHeaders(ECHO), true,
        RawHttp2Client.frame(0, EchoRequest.newBuilder().setMessage("still here").build().toByteArray())).await();
    assertEquals("0", ok.grpcStatus(), "a valid call after the bad one failed: " + ok.headerBlocks);
    byte[] body = ok.data.toByteArray();
    assertEquals("still here", EchoResponse.parseFrom(java.util.Arrays.copyOfRange(body, 5, body.length)).getMessage());
    peer.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  private static byte[] validMessage() {
    return RawHttp2Client.frame(0, EchoRequest.newBuilder().setMessage("x").build().toByteArray());
  }

  @Test
  void unsupportedContentTypeIs415() throws Exception {
    Http2Headers headers = peer.grpcHeaders(ECHO);
    headers.set("content-type", "application/xml");
    RawHttp2Client.Exchange exchange = peer.send(headers, true, "<echo/>".getBytes(StandardCharsets.UTF_8)).await();
    assertEquals("415", exchange.first().status().toString());
    assertTrue(exchange.data.toString(StandardCharsets.UTF_8).contains("application/xml"), exchange.data.toString());
  }

  @Test
  void grpcPlusProtoContentTypeIsServed() throws Exception {
    Http2Headers headers = peer.grpcHeaders(ECHO);
    headers.set("content-type", "application/grpc+proto");
    RawHttp2Client.Exchange exchange = peer.send(headers, true, validMessage()).await();
    assertEquals("0", exchange.grpcStatus());
  }

  @Test
  void headerBlockJustOverTheLimitIsRefusedWith431() throws Exception {
    // 8 KiB is the limit; up to 1.25 times it, the stream is refused and the connection goes on.
    Http2Headers headers = peer.grpcHeaders(ECHO);
    headers.add("x-big", "h".repeat(9 * 1024));
    RawHttp2Client.Exchange exchange = peer.send(headers, true, validMessage()).await();
    assertEquals("431", exchange.first().status().toString(), exchange.headerBlocks.toString());
  }

  @Test
  void hugeHeaderBlockEndsTheConnectionButNotTheServer() throws Exception {
    // Past 1.25 times the limit, decoding it at all is the attack: the connection goes (GOAWAY).
    Http2Headers headers = peer.grpcHeaders(ECHO);
    headers.add("x-huge", "h".repeat(64 * 1024));
    RawHttp2Client.Exchange exchange = peer.send(headers, true, validMessage()).await();
    assertTrue(exchange.headerBlocks.isEmpty(), "a 64 KiB header block got an answer: " + exchange.headerBlocks);
    peer.close();
    peer = new RawHttp2Client(server.port());
  }

  @Test
  void getIs405() throws Exception {
    Http2Headers headers = peer.grpcHeaders(ECHO);
    headers.method("GET");
    RawHttp2Client.Exchange exchange = peer.send(headers, true).await();
    assertEquals("405", exchange.first().status().toString());
  }

  @Test
  void unknownServiceAndMethodAreUnimplemented() throws Exception {
    RawHttp2Client.Exchange service = peer.send(peer.grpcHeaders("/no.Such/Method"), true, validMessage()).await();
    assertEquals("12", service.grpcStatus());
    assertEquals("Method not found: no.Such/Method", service.grpcMessage());
    RawHttp2Client.Exchange method = peer.send(peer.grpcHeaders("/triple.test.EchoService/nope"), true, validMessage()).await();
    assertEquals("12", method.grpcStatus());
  }

  @Test
  void messageOverTheLimitIsResourceExhausted() throws Exception {
    RawHttp2Client.Exchange claimed = peer.send(peer.grpcHeaders(ECHO), true,
        RawHttp2Client.frame(0, 1 << 20, new byte[10])).await();
    assertEquals("8", claimed.grpcStatus());
    assertTrue(claimed.grpcMessage().contains("maximum size 1024"), claimed.grpcMessage());
    RawHttp2Client.Exchange real = peer.send(peer.grpcHeaders(ECHO), true,
        RawHttp2Client.frame(0, new byte[MAX_MESSAGE + 1])).await();
    assertEquals("8", real.grpcStatus());
  }

  @Test
  void undecodableProtobufIsInternal() throws Exception {
    RawHttp2Client.Exchange exchange = peer.send(peer.grpcHeaders(ECHO), true,
        RawHttp2Client.frame(0, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff})).await();
    assertEquals("13", exchange.grpcStatus());
    assertTrue(exchange.grpcMessage().contains("Could not decode the request message"), exchange.grpcMessage());
  }

  @Test
  void compressedFlagWithoutEncodingIsInternal() throws Exception {
    RawHttp2Client.Exchange exchange = peer.send(peer.grpcHeaders(ECHO), true,
        RawHttp2Client.frame(1, EchoRequest.getDefaultInstance().toByteArray())).await();
    assertEquals("13", exchange.grpcStatus());
    assertTrue(exchange.grpcMessage().contains("no grpc-encoding"), exchange.grpcMessage());
  }

  @Test
  void unsupportedEncodingIsUnimplemented() throws Exception {
    Http2Headers headers = peer.grpcHeaders(ECHO);
    headers.add("grpc-encoding", "snappy");
    RawHttp2Client.Exchange exchange = peer.send(headers, true, validMessage()).await();
    assertEquals("12", exchange.grpcStatus());
    assertTrue(exchange.grpcMessage().contains("snappy"), exchange.grpcMessage());
    assertEquals("gzip", exchange.first().get("grpc-accept-encoding").toString());
  }

  @Test
  void malformedTimeoutIsAnError() throws Exception {
    for (String timeout : new String[] {"abc", "123456789S", "10x"}) {
      Http2Headers headers = peer.grpcHeaders(ECHO);
      headers.add("grpc-timeout", timeout);
      RawHttp2Client.Exchange exchange = peer.send(headers, true, validMessage()).await();
      assertEquals("13", exchange.grpcStatus(), timeout);
      assertTrue(exchange.grpcMessage().contains("grpc-timeout"), exchange.grpcMessage());
    }
  }

  @Test
  void streamEndingMidMessageIsInternal() throws Exception {
    RawHttp2Client.Exchange exchange = peer.send(peer.grpcHeaders(ECHO), true,
        RawHttp2Client.frame(0, 100, new byte[10])).await();
    assertEquals("13", exchange.grpcStatus());
    assertTrue(exchange.grpcMessage().contains("middle of a gRPC message"), exchange.grpcMessage());
  }

  @Test
  void reservedFlagBitsAreInternal() throws Exception {
    RawHttp2Client.Exchange exchange = peer.send(peer.grpcHeaders(ECHO), true,
        RawHttp2Client.frame(2, EchoRequest.getDefaultInstance().toByteArray())).await();
    assertEquals("13", exchange.grpcStatus());
  }

  @Test
  void unaryCallWithoutARequestIsUnimplemented() throws Exception {
    RawHttp2Client.Exchange exchange = peer.send(peer.grpcHeaders(ECHO), true).await();
    assertEquals("12", exchange.grpcStatus());
    assertTrue(exchange.grpcMessage().contains("without a request"), exchange.grpcMessage());
  }

  @Test
  void unaryCallWithTwoRequestsIsUnimplemented() throws Exception {
    RawHttp2Client.Exchange exchange = peer.send(peer.grpcHeaders(ECHO), true, validMessage(), validMessage()).await();
    assertEquals("12", exchange.grpcStatus());
    assertTrue(exchange.grpcMessage().contains("Too many requests"), exchange.grpcMessage());
  }

  @Test
  void serverEnforcesTheDeadlineOnItsOwn() throws Exception {
    Http2Headers headers = peer.grpcHeaders(ECHO);
    headers.add("grpc-timeout", "200m");
    long start = System.nanoTime();
    RawHttp2Client.Exchange exchange = peer.send(headers, true, RawHttp2Client.frame(0,
        EchoRequest.newBuilder().setDelayMillis(20_000).build().toByteArray())).await();
    assertEquals("4", exchange.grpcStatus(), "the peer never cancels: the server must end the call itself");
    assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 15);
    assertTrue(service.cancellationSeen.await(10, TimeUnit.SECONDS), "the service did not see its deadline pass");
  }

  @Test
  void resetByThePeerCancelsTheServerCall() throws Exception {
    RawHttp2Client.Exchange exchange = peer.send(peer.grpcHeaders(ECHO), true, RawHttp2Client.frame(0,
        EchoRequest.newBuilder().setDelayMillis(20_000).build().toByteArray()));
    assertTrue(service.waiting.await(10, TimeUnit.SECONDS));
    peer.cancel(exchange);
    assertTrue(service.cancellationSeen.await(10, TimeUnit.SECONDS));
  }

  @Test
  void droppedConnectionCancelsTheServerCall() throws Exception {
    peer.send(peer.grpcHeaders(ECHO), true, RawHttp2Client.frame(0,
        EchoRequest.newBuilder().setDelayMillis(20_000).build().toByteArray()));
    assertTrue(service.waiting.await(10, TimeUnit.SECONDS));
    peer.disconnect();
    assertTrue(service.cancellationSeen.await(10, TimeUnit.SECONDS));
    peer = new RawHttp2Client(server.port());
  }
}
