package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NettyServerHandler} on an {@link EmbeddedChannel}: each new stream goes to the protocol its
 * content type names, which answers what it refuses in its own terms, and the stream's later frames
 * (DATA, trailers, RST_STREAM) reach the exchange the protocol attached. No socket, no thread.
 */
class ServerProtocolRoutingTest {

  private static final int MAX_MESSAGE = 64;

  private final MockTicker ticker = Ticker.newMockTicker();
  private final List<String> events = new ArrayList<>();
  private final List<ServerStream> streams = new ArrayList<>();
  private final List<InboundRequest> requests = new ArrayList<>();
  private final ServerTransportListener listener = (stream, request) -> {
    streams.add(stream);
    requests.add(request);
    events.add("created " + request.path() + (request.codec() == null ? "" : " " + request.codec()));
    stream.request(2);
    return new ServerStreamListener() {
      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        events.add("message " + payload.toString(StandardCharsets.UTF_8));
        payload.release();
      }

      @Override
      public void onHalfClose() {
        events.add("halfClose");
      }

      @Override
      public void onCancel(Status status) {
        events.add("cancel " + status.code() + " " + status.description());
      }

      @Override
      public void onComplete() {
        events.add("complete");
      }

      @Override
      public void onReady() {}
    };
  };
  private NettyServerTransport transport;
  private EmbeddedHttp2Peer client;

  @BeforeEach
  void connect() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
    ServerTransportOptions options = ServerTransportOptions.DEFAULTS.withLimits(new io.triplerpc.internal.stream.Http2Limits(
        MAX_MESSAGE, 8192, 1 << 20, 8 << 20, 10_000, 200, 30, 2, 64L << 20));
    EmbeddedChannel channel = EmbeddedChannel.builder().ticker(ticker).build();
    transport.initConnection(channel, listener, options);
    client = new EmbeddedHttp2Peer(channel, ticker, false);
    client.sendClientPreface();
    client.sendSettingsAck();
    client.frames();
  }

  @AfterEach
  void close() throws Exception {
    client.close();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  private static byte[] grpcMessage(String text) {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    byte[] framed = new byte[5 + payload.length];
    framed[4] = (byte) payload.length;
    System.arraycopy(payload, 0, framed, 5, payload.length);
    return framed;
  }

  /** The one HEADERS frame the handler wrote since the last look, decoded. */
  private Http2Headers onlyHeaders() {
    List<Frame> headers = client.frames(EmbeddedHttp2Peer.HEADERS);
    assertEquals(1, headers.size(), headers.toString());
    return client.headers(headers.get(0));
  }

  @Test
  void aGrpcStreamGetsItsMessagesItsHalfCloseAndItsResponse() {
    client.sendGrpcRequestHeaders(1, "/test.Echo/Unary");
    client.sendFrame(EmbeddedHttp2Peer.DATA, 0, 1, grpcMessage("abc"));
    client.sendHeaders(1, new DefaultHttp2Headers(), true);
    assertEquals(List.of("created /test.Echo/Unary", "message abc", "halfClose"), events);

    streams.get(0).close(Status.OK, new Metadata());
    client.runPendingTasks();
    Http2Headers trailersOnly = onlyHeaders();
    assertEquals("200", trailersOnly.status().toString());
    assertEquals("0", trailersOnly.get("grpc-status").toString());
    assertEquals(List.of("created /test.Echo/Unary", "message abc", "halfClose", "complete"), events);
  }

  @Test
  void aClientResetCancelsTheGrpcCall() {
    client.sendGrpcRequestHeaders(3, "/test.Echo/Stream");
    client.sendRstStream(3, 0x8);
    assertEquals(List.of("created /test.Echo/Stream", "cancel CANCELLED Client reset the stream: RST_STREAM CANCEL"),
        events);
  }

  @Test
  void grpcRefusesInItsOwnTermsWithoutACall() {
    Http2Headers get = new DefaultHttp2Headers().method("GET").scheme("http").path("/test.Echo/Unary")
        .authority("localhost");
    get.add("content-type", "application/grpc");
    client.sendHeaders(1, get, true);
    Http2Headers notAllowed = onlyHeaders();
    assertEquals("405", notAllowed.status().toString());
    assertEquals("POST", notAllowed.get("allow").toString());

    Http2Headers badTimeout = new DefaultHttp2Headers().method("POST").scheme("http").path("/test.Echo/Unary")
        .authority("localhost");
    badTimeout.add("content-type", "application/grpc");
    badTimeout.add("grpc-timeout", "soon");
    client.sendHeaders(3, badTimeout, false);
    Http2Headers trailersOnly = onlyHeaders();
    assertEquals("200", trailersOnly.status().toString());
    assertEquals(String.valueOf(Status.Code.INTERNAL.value()), trailersOnly.get("grpc-status").toString());
    assertTrue(events.isEmpty(), events.toString());
  }

  private static Http2Headers jsonPost(String path) {
    Http2Headers headers = new DefaultHttp2Headers().method("POST").scheme("http").path(path).authority("localhost");
    headers.add("content-type", "application/json");
    return headers;
  }

  @Test
  void anHttpUnaryBodyIsReadWholeAcrossFramesAndTrailersThenServed() {
    client.sendHeaders(1, jsonPost("/test.Echo/Unary"), false);
    client.sendFrame(EmbeddedHttp2Peer.DATA, 0, 1, "{\"text\":".getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of("created /test.Echo/Unary json"), events, "no message before the whole body is in");
    client.sendFrame(EmbeddedHttp2Peer.DATA, 0, 1, "\"hi\"}".getBytes(StandardCharsets.UTF_8));
    client.sendHeaders(1, new DefaultHttp2Headers(), true);
    assertEquals(List.of("created /test.Echo/Unary json", "message {\"text\":\"hi\"}", "halfClose"), events);
  }

  @Test
  void anHttpUnaryBodyOverTheLimitIsAnswered413AndNeverServed() {
    client.sendHeaders(1, jsonPost("/test.Echo/Unary"), false);
    client.sendFrame(EmbeddedHttp2Peer.DATA, 0, 1, new byte[MAX_MESSAGE]);
    client.sendFrame(EmbeddedHttp2Peer.DATA, EmbeddedHttp2Peer.FLAG_END_STREAM, 1, new byte[1]);
    assertEquals("413", onlyHeaders().status().toString());
    assertEquals(List.of("created /test.Echo/Unary json",
        "cancel RESOURCE_EXHAUSTED Request body larger than the server's maximum message size of 64 bytes"), events,
        "never served");
  }

  @Test
  void anHttpUnaryBodyCutOffByAResetIsDroppedAndNeverServed() {
    client.sendHeaders(1, jsonPost("/test.Echo/Unary"), false);
    client.sendFrame(EmbeddedHttp2Peer.DATA, 0, 1, "{\"text\":".getBytes(StandardCharsets.UTF_8));
    client.sendRstStream(1, 0x8);
    assertEquals(List.of("created /test.Echo/Unary json", "cancel CANCELLED Client reset the stream: RST_STREAM CANCEL"),
        events, "never served");
    // The leak detector (PARANOID) fails the class if the half-read body was not released.
  }

  @Test
  void anHttpUnaryRequestWithAnUnknownContentTypeIsRefusedBeforeDispatch() {
    Http2Headers xml = new DefaultHttp2Headers().method("POST").scheme("http").path("/test.Echo/Unary")
        .authority("localhost");
    xml.add("content-type", "application/xml");
    client.sendHeaders(1, xml, true);
    assertEquals("415", onlyHeaders().status().toString());
    assertTrue(events.isEmpty(), events.toString());
  }
}
