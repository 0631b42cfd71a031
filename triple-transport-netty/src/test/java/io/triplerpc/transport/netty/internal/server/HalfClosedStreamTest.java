package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A web request's stream that the client half-closed, then sent HEADERS on again in the same read,
 * before the server's answer left its write queue: a stream error STREAM_CLOSED (RFC 9113 5.1), as
 * h2spec's 5.1/6 checks.
 */
class HalfClosedStreamTest {

  private final ServerTransportListener listener = (stream, request) -> {
    throw new AssertionError("no call expected");
  };
  private NettyServerTransport transport;
  private EmbeddedHttp2Peer client;

  @BeforeEach
  void connect() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS,
        listener);
    client = EmbeddedServerConnection.open(transport, listener, ServerTransportOptions.DEFAULTS, Ticker.newMockTicker());
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  private static void headersFrame(ByteBuf out, int streamId, Http2Headers headers) throws Exception {
    ByteBuf block = Unpooled.buffer();
    new DefaultHttp2HeadersEncoder().encodeHeaders(streamId, headers, block);
    out.writeMedium(block.readableBytes()).writeByte(0x1).writeByte(0x4 | 0x1).writeInt(streamId).writeBytes(block);
    block.release();
  }

  @Test
  void headersOnAHalfClosedStreamAreAStreamErrorStreamClosed() throws Exception {
    Http2Headers request = new DefaultHttp2Headers().method("POST").scheme("http").path("/").authority("localhost");
    ByteBuf bytes = Unpooled.buffer();
    headersFrame(bytes, 1, request);
    headersFrame(bytes, 1, request);
    client.write(bytes);
    List<Frame> frames = client.frames();
    List<Frame> resets = frames.stream().filter(f -> f.type() == EmbeddedHttp2Peer.RST_STREAM).toList();
    List<Frame> goAways = frames.stream().filter(f -> f.type() == EmbeddedHttp2Peer.GOAWAY).toList();
    assertTrue(resets.stream().anyMatch(f -> f.errorCode() == Http2Error.STREAM_CLOSED.code())
        || goAways.stream().anyMatch(f -> f.errorCode() == Http2Error.STREAM_CLOSED.code()),
        frames.toString());
  }
}
