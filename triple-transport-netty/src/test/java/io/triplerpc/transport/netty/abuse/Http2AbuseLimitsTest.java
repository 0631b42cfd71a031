package io.triplerpc.transport.netty.abuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Transport;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import io.triplerpc.transport.netty.internal.IoTransport;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A scripted peer abuses HTTP/2 the way CVE-2019-9512/9515 (PING and SETTINGS floods that never read
 * the answers), CVE-2023-44487 (rapid reset: here judged by the share of streams reset at once, so that a
 * client resetting half of them keeps its connection) and empty DATA frames do: the server answers GOAWAY
 * ENHANCE_YOUR_CALM and closes that connection, holds no more than its cap of answers meanwhile, and
 * serves a normal client on another connection before and after.
 */
@Timeout(120)
class Http2AbuseLimitsTest {

  private static final String ECHO = "/triple.test.EchoService/echo";

  private TripleServer server;
  private TripleClient client;

  private void start(UnaryOperator<TripleServer.Builder> customize) {
    server = customize.apply(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl())).build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    assertServes("before");
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "server did not terminate");
    }
  }

  /** A normal call on the well-behaved client's own connection. */
  private void assertServes(String message) {
    EchoService echo = client.proxy(EchoService.class);
    assertEquals(message, echo.echo(EchoRequest.newBuilder().setMessage(message).build()).getMessage());
  }

  private Http2Headers grpcRequest() {
    Http2Headers headers = new DefaultHttp2Headers()
        .method("POST").scheme("http").path(ECHO).authority("127.0.0.1:" + server.port());
    headers.add("content-type", "application/grpc");
    headers.add("te", "trailers");
    return headers;
  }

  /**
   * Floods the server with frames that each ask for an acknowledgement, never reading one: past the
   * kernel's socket buffers, the acknowledgements wait in the server, where the cap applies and the
   * server closes the connection (Netty closes at once there: the GOAWAY it queues behind the unread
   * acknowledgements never leaves). Without the cap, the flood would run to {@code limit} and the
   * server would hold every acknowledgement.
   */
  private void assertFloodIsCutOff(RawFramePeer.FrameWriter frame) throws Exception {
    // Far more than the cap plus the kernel's buffers (a few MiB on Linux) can hold.
    long limit = 20_000_000;
    try (RawFramePeer peer = RawFramePeer.client(server.port())) {
      long written = peer.flood(frame, limit);
      assertTrue(written >= 0, "the server took " + limit + " frames without closing the connection");
    }
  }

  /** The connection ended with GOAWAY ENHANCE_YOUR_CALM, and Netty's debug data names the limit. */
  private static void assertEnhanceYourCalm(RawFramePeer.Transcript transcript, String limit) {
    assertEquals(RawFramePeer.ENHANCE_YOUR_CALM, transcript.goAwayError(), "GOAWAYs: " + transcript.goAways());
    String debugData = transcript.goAways().get(transcript.goAways().size() - 1).debugData();
    assertTrue(debugData.contains(limit), debugData);
  }

  @Test
  void pingFloodFromAPeerThatNeverReadsIsCutOffAtTheDefaultCap() throws Exception {
    start(b -> b);
    assertFloodIsCutOff((peer, i) -> peer.ping(i));
    assertServes("after");
  }

  @Test
  void settingsFloodFromAPeerThatNeverReadsIsCutOffAtAConfiguredCap() throws Exception {
    start(b -> b.maxQueuedControlFrames(100));
    assertFloodIsCutOff((peer, i) -> peer.settings());
    assertServes("after");
  }

  @Test
  void rapidResetEndsWithEnhanceYourCalm() throws Exception {
    start(b -> b);
    try (RawFramePeer peer = RawFramePeer.client(server.port())) {
      // Every stream reset as soon as it opens: the 500th premature reset is one too many.
      for (int i = 0; i < 500; i++) {
        int stream = 1 + 2 * i;
        peer.headers(stream, grpcRequest(), false);
        peer.rstStream(stream, 0x8);
      }
      peer.flush();
      assertEnhanceYourCalm(peer.readToEnd(), "too_many_premature_resets");
    }
    assertServes("after");
  }

  @Test
  void aClientThatResetsHalfItsStreamsAtOnceKeepsItsConnection() throws Exception {
    start(b -> b.maxRstFramesPerWindow(5, Duration.ofMinutes(1)));
    try (RawFramePeer peer = RawFramePeer.client(server.port())) {
      // 1,000 streams, every other one reset at once (as a client hedging every call would): half of
      // them, never more than half, so the connection stays; the configured limit counts sent resets only.
      int stream = 1;
      for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 25; i++) {
          peer.headers(stream, grpcRequest(), false);
          peer.data(stream, new byte[] {0, 0, 0, 0, 0}, true);
          peer.headers(stream + 2, grpcRequest(), false);
          peer.rstStream(stream + 2, 0x8);
          stream += 4;
        }
        peer.flush();
        awaitTrailers(peer, 25);
      }
      peer.headers(stream, grpcRequest(), false);
      peer.data(stream, new byte[] {0, 0, 0, 0, 0}, true);
      peer.flush();
      awaitTrailers(peer, 1);
    }
  }

  /** Reads until {@code calls} calls ended with trailers; fails on a GOAWAY or the end of the connection. */
  private static void awaitTrailers(RawFramePeer peer, int calls) throws Exception {
    int ended = 0;
    while (ended < calls) {
      RawFramePeer.Frame frame = peer.read();
      assertNotNull(frame, "the connection ended before the calls did");
      assertTrue(frame.type() != RawFramePeer.GOAWAY, () -> "GOAWAY " + frame.errorCode() + " " + frame.debugData());
      if (frame.type() == RawFramePeer.HEADERS && frame.has(RawFramePeer.FLAG_END_STREAM)) {
        ended++;
      }
    }
  }

  @Test
  void provokingTheServerToResetStreamsPastTheDefaultRateEndsWithEnhanceYourCalm() throws Exception {
    start(b -> b);
    assertResetsPastTheDefaultRateEndWithEnhanceYourCalm();
  }

  /**
   * On io_uring too, whatever transport the suite runs on: Netty closes the connection as soon as it has
   * queued the GOAWAY, before io_uring has written the resets and the GOAWAY (CloseAfterWrites).
   */
  @Test
  void onIoUringTheResetsAndTheGoAwayStillLeaveBeforeTheClose() throws Exception {
    assumeTrue(IoTransport.IO_URING.isAvailable(), "io_uring");
    start(b -> b.transport(Transport.IO_URING));
    assertResetsPastTheDefaultRateEndWithEnhanceYourCalm();
  }

  private void assertResetsPastTheDefaultRateEndWithEnhanceYourCalm() throws Exception {
    try (RawFramePeer peer = RawFramePeer.client(server.port())) {
      // MadeYouReset (CVE-2025-55163): the peer sends no RST_STREAM itself, but a WINDOW_UPDATE of 0 on
      // each stream, a stream error the server answers with RST_STREAM; the 201st is one too many.
      for (int i = 0; i < 201; i++) {
        int stream = 1 + 2 * i;
        peer.headers(stream, grpcRequest(), false);
        peer.windowUpdate(stream, 0);
      }
      peer.flush();
      RawFramePeer.Transcript transcript = peer.readToEnd();
      // Netty counts a reset as it writes it: the 201st still leaves, the GOAWAY follows it.
      assertEquals(201, transcript.count(RawFramePeer.RST_STREAM), () -> "the server's resets: " + transcript);
      assertEnhanceYourCalm(transcript, "Maximum number 200 of RST frames frames reached within 30 seconds");
    }
    assertServes("after");
  }

  @Test
  void aThirdEmptyDataFrameInARowEndsWithEnhanceYourCalm() throws Exception {
    start(b -> b);
    try (RawFramePeer peer = RawFramePeer.client(server.port())) {
      peer.headers(1, grpcRequest(), false);
      // Netty's builder default, which Triple keeps: two empty DATA frames in a row, and no more.
      for (int i = 0; i < 3; i++) {
        peer.data(1, new byte[0], false);
      }
      peer.flush();
      assertEnhanceYourCalm(peer.readToEnd(), "Maximum number 2 of empty data frames");
    }
    assertServes("after");
  }

  @Test
  void aClientThatAsksForResponsesAndReadsNoneIsCutOffAtThePendingBytesLimit() throws Exception {
    start(b -> b.maxPendingOutboundBytes(4L << 20));
    byte[] request = EchoRequest.newBuilder().setMessage("big").setResponseSize(1 << 20).build().toByteArray();
    byte[] framed = java.nio.ByteBuffer.allocate(5 + request.length).put((byte) 0).putInt(request.length).put(request)
        .array();
    try (RawFramePeer peer = RawFramePeer.client(server.port())) {
      // Twenty responses of 1 MiB asked for, and no window given beyond HTTP/2's initial 64 KiB.
      for (int i = 0; i < 20; i++) {
        int stream = 1 + 2 * i;
        peer.headers(stream, grpcRequest(), false);
        peer.data(stream, framed, true);
      }
      peer.flush();
      RawFramePeer.Transcript transcript = peer.readToEnd();
      assertTrue(transcript.count(RawFramePeer.RST_STREAM) >= 1, () -> "the call past the limit is reset first: " + transcript);
      assertEnhanceYourCalm(transcript, "client does not read");
    }
    assertServes("after");
  }

  @Test
  void aClientThatPingsTooOftenGetsGoAwayTooManyPings() throws Exception {
    start(b -> b);
    try (RawFramePeer peer = RawFramePeer.client(server.port())) {
      // A call in flight, and three PINGs at once: the default permits one per 5 minutes.
      peer.headers(1, grpcRequest(), false);
      for (int i = 0; i < 3; i++) {
        peer.ping(i);
      }
      peer.flush();
      RawFramePeer.Transcript transcript = peer.readToEnd();
      // Netty answers each PING before the server judges it: three ACKs, then the GOAWAY.
      assertEquals(3, transcript.count(RawFramePeer.PING));
      assertEnhanceYourCalm(transcript, "too_many_pings");
    }
    assertServes("after");
  }

  @Test
  void aConnectionThatNeverSpeaksIsClosedAfterTheHandshakeTimeout() throws Exception {
    start(b -> b.handshakeTimeout(Duration.ofMillis(200)));
    try (java.net.Socket silent = new java.net.Socket("127.0.0.1", server.port())) {
      silent.setSoTimeout(30_000);
      assertEquals(-1, silent.getInputStream().read(), "the server closed the silent connection");
    }
    assertServes("after");
  }

  @Test
  void limitsSetToZeroAreOff() throws Exception {
    start(b -> b.maxConsecutiveEmptyDataFrames(0).maxRstFramesPerWindow(0, Duration.ofSeconds(1)));
    try (RawFramePeer peer = RawFramePeer.client(server.port())) {
      peer.headers(1, grpcRequest(), false);
      for (int i = 0; i < 10; i++) {
        peer.data(1, new byte[0], false);
      }
      peer.data(1, new byte[] {0, 0, 0, 0, 0}, true);
      for (int i = 0; i < 300; i++) {
        int stream = 3 + 2 * i;
        peer.headers(stream, grpcRequest(), false);
        peer.rstStream(stream, 0x8);
      }
      peer.ping(42);
      peer.flush();
      RawFramePeer.Frame frame;
      do {
        frame = peer.read();
        assertNotNull(frame, "the connection ended");
        RawFramePeer.Frame read = frame;
        assertTrue(read.type() != RawFramePeer.GOAWAY, () -> "GOAWAY " + read.errorCode() + " " + read.debugData());
      } while (!(frame.type() == RawFramePeer.PING && frame.has(RawFramePeer.FLAG_ACK)));
    }
    assertServes("after");
  }
}
