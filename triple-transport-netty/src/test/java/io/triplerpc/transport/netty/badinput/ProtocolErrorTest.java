package io.triplerpc.transport.netty.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTP/2 protocol errors from a frame-level scripted client, answered as RFC 9113 says (the cases
 * h2spec checks, plus the neighbours a fix could break): stream errors reset one stream and the
 * connection serves on; connection errors send GOAWAY naming the last stream the server opened.
 */
class ProtocolErrorTest {

  private TripleServer server;
  private FrameLevelPeer peer;

  @BeforeEach
  void start() throws Exception {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl())
        .build()
        .start();
    peer = new FrameLevelPeer(server.port());
  }

  @AfterEach
  void stop() throws Exception {
    peer.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  /** Sends a request on {@code streamId} and asserts that it is answered: the connection still serves. */
  private void assertServes(int streamId) throws Exception {
    peer.headers(streamId, FrameLevelPeer.request("GET", "/"), true);
    FrameLevelPeer.Frame end = peer.awaitEnd(streamId);
    assertTrue(end.type() != Http2FrameTypes.RST_STREAM, "a valid request was reset: " + end);
  }

  static Stream<Arguments> malformedRequests() {
    return Stream.of(
        Arguments.of("without :method", (Consumer<Http2Headers>) h -> h.remove(":method")),
        Arguments.of("without :scheme", (Consumer<Http2Headers>) h -> h.remove(":scheme")),
        Arguments.of("without :path", (Consumer<Http2Headers>) h -> h.remove(":path")),
        Arguments.of("with an empty :path", (Consumer<Http2Headers>) h -> h.path("")),
        Arguments.of("with user info in :authority", (Consumer<Http2Headers>) h -> h.authority("me@127.0.0.1")),
        Arguments.of("with a host other than :authority", (Consumer<Http2Headers>) h -> h.add("host", "example.com")),
        Arguments.of("CONNECT with a :path", (Consumer<Http2Headers>) h -> h.method("CONNECT")));
  }

  @ParameterizedTest(name = "a request {0} is reset with PROTOCOL_ERROR before routing")
  @MethodSource("malformedRequests")
  void malformedRequestIsResetWithProtocolErrorBeforeRouting(String what, Consumer<Http2Headers> spoil)
      throws Exception {
    peer.handshake();
    Http2Headers headers = FrameLevelPeer.request("POST", "/triple.test.EchoService/echo");
    headers.add("content-type", "application/grpc");
    spoil.accept(headers);
    peer.headers(1, headers, true);
    FrameLevelPeer.Frame end = peer.awaitEnd(1);
    assertEquals(Http2FrameTypes.RST_STREAM, end.type(), "answered instead of reset: " + end);
    assertEquals(Http2Error.PROTOCOL_ERROR.code(), end.errorCode());
    assertServes(3);
  }

  @Test
  void hostEqualToAuthorityIsServed() throws Exception {
    peer.handshake();
    Http2Headers headers = FrameLevelPeer.request("GET", "/");
    headers.add("host", "127.0.0.1");
    peer.headers(1, headers, true);
    assertTrue(peer.awaitEnd(1).type() != Http2FrameTypes.RST_STREAM);
  }

  @Test
  void headersOnAStreamThatEndedIsConnectionErrorStreamClosed() throws Exception {
    peer.handshake();
    assertServes(1);
    assertServes(3);
    peer.headers(1, FrameLevelPeer.request("GET", "/"), true);
    FrameLevelPeer.Frame goAway = peer.awaitFrame(Http2FrameTypes.GO_AWAY, 0);
    assertEquals(Http2Error.STREAM_CLOSED.code(), goAway.errorCode());
    assertEquals(3, goAway.lastStreamId(), "GOAWAY names the last stream the server opened");
    assertTrue(peer.closedByServer());
  }

  @Test
  void streamIdLowerThanOneOpenedBeforeIsConnectionErrorProtocolError() throws Exception {
    peer.handshake();
    assertServes(5);
    peer.headers(3, FrameLevelPeer.request("GET", "/"), true);
    FrameLevelPeer.Frame goAway = peer.awaitFrame(Http2FrameTypes.GO_AWAY, 0);
    assertEquals(Http2Error.PROTOCOL_ERROR.code(), goAway.errorCode());
    assertEquals(5, goAway.lastStreamId(), "GOAWAY names the last stream the server opened");
    assertTrue(peer.closedByServer());
  }

  @Test
  void headersOnAStreamTheServerResetKeepTheConnection() throws Exception {
    // The client may have sent them before the RST_STREAM reached it: not a connection error.
    peer.handshake();
    Http2Headers malformed = FrameLevelPeer.request("POST", "/triple.test.EchoService/echo");
    malformed.remove(":path");
    peer.headers(1, malformed, false);
    assertEquals(Http2FrameTypes.RST_STREAM, peer.awaitEnd(1).type());
    peer.headers(1, FrameLevelPeer.request("GET", "/"), true);
    assertServes(3);
  }

  @Test
  void undecodableHeaderBlockGoAwayNamesTheLastStreamOpenedNotTheHighestId() throws Exception {
    peer.handshake();
    assertServes(1);
    // An HPACK index far beyond both tables: COMPRESSION_ERROR, a connection error.
    peer.writeFrame(Http2FrameTypes.HEADERS, FrameLevelPeer.END_HEADERS | FrameLevelPeer.END_STREAM, 3,
        new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0x7f});
    FrameLevelPeer.Frame goAway = peer.awaitFrame(Http2FrameTypes.GO_AWAY, 0);
    assertEquals(Http2Error.COMPRESSION_ERROR.code(), goAway.errorCode());
    assertEquals(1, goAway.lastStreamId(), "stream 3 was never processed; the client may retry it");
    assertTrue(peer.closedByServer());
  }

  @Test
  void invalidPrefaceClosesTheConnectionWithoutAnswer() throws Exception {
    peer.writeRaw("INVALID CONNECTION PREFACE\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    assertEquals(-1, peer.readByte(), "the server answered a corrupt preface instead of closing");
  }
}
