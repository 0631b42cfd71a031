package io.triplerpc.transport.netty.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectDecoder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.triplerpc.Metadata;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.TrackingAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzz target for the HTTP/1.1 client's response parser (Jazzer): response bytes, in pieces, through
 * the client's real pipeline ({@code HttpClientCodec}, {@link Http1ClientHandler}, the stream and the
 * framing of the call's protocol) on an {@link EmbeddedChannel}, after the client sent one call's
 * request. Then the server goes away.
 *
 * <p>Beyond "nothing escapes": the call ends exactly once, with a status, by the time the connection
 * is gone (never left open), no message delivered is over the limit, and every buffer the connection
 * allocated is released.
 */
class Http1ClientFuzzTest {

  private static final int MAX_MESSAGE = 4096;
  /** gRPC-Web, Connect unary, Connect streaming, gRPC: the framings a call over HTTP/1.1 may have. */
  private static final int FRAMINGS = 4;

  /**
   * The first byte of {@code input} picks the call's framing (and, with its high bit, a server-streaming
   * call rather than a unary one); the second sets the size of the pieces the response arrives in (1 to
   * 4,096 bytes); the rest is what the server answers.
   */
  @FuzzTest
  void responseBytes(byte[] input) {
    if (input.length < 2) {
      return;
    }
    ClientFraming framing = framing(input[0] & 0x7f);
    MethodType type = (input[0] & 0x80) != 0 && !(framing instanceof ConnectUnaryClientFraming)
        ? MethodType.SERVER_STREAMING : MethodType.UNARY;
    int size = 1 + (input[1] & 0xff) * 16;

    EmbeddedChannel channel = new EmbeddedChannel();
    TrackingAllocator alloc = new TrackingAllocator();
    channel.config().setAllocator(alloc);
    Ending ending = new Ending();
    try {
      Dialer dialer = new Dialer(new InetSocketAddress("127.0.0.1", 1), ClientTransportOptions.DEFAULTS, alloc, null,
          new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), HostResolver.SYSTEM);
      Http1ClientTransport transport = new Http1ClientTransport(dialer, channel.eventLoop());
      Http1ClientConnection connection = new Http1ClientConnection(channel, transport, 64 * 1024);
      channel.pipeline().addLast(new HttpClientCodec(HttpObjectDecoder.DEFAULT_MAX_INITIAL_LINE_LENGTH,
          ClientTransportOptions.DEFAULTS.limits().maxHeaderListSize(), HttpObjectDecoder.DEFAULT_MAX_CHUNK_SIZE),
          connection.handler());
      connection.markActive();

      Http2Headers headers = AbstractClientTransport.requestHeaders(AsciiString.of("http"),
          AsciiString.of("127.0.0.1:1"), "/fuzz.Echo/Say", framing, new Metadata(), 0, null);
      Http1ClientStream stream = new Http1ClientStream(connection, headers, MAX_MESSAGE, framing, type);
      stream.request(Integer.MAX_VALUE);
      stream.start(ending, true);
      stream.writeMessage(alloc.buffer(5).writeZero(5), true);
      channel.runPendingTasks();
      discardOutbound(channel);

      for (int i = 2; i < input.length && channel.isOpen(); i += size) {
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(input, i, Math.min(input.length, i + size))));
        channel.runPendingTasks();
        discardOutbound(channel);
      }
      channel.checkException();
    } finally {
      // The server goes away: the socket closes under the pipeline.
      channel.unsafe().close(channel.voidPromise());
      channel.runPendingTasks();
      channel.finishAndReleaseAll();
    }
    try {
      assertEquals(1, ending.endings, () -> "the call ends once, with a status, once the connection is gone: "
          + ending.statuses);
      assertNotNull(ending.statuses.get(0).code());
      List<String> held = alloc.unreleased();
      assertTrue(held.isEmpty(), () -> held.size() + " buffer(s) still held after the connection closed:\n"
          + String.join("\n----\n", held));
    } finally {
      alloc.releaseAll();
    }
  }

  private static ClientFraming framing(int choice) {
    switch (choice % FRAMINGS) {
      case 0:
        return new GrpcWebClientFraming(MAX_MESSAGE, "proto");
      case 1:
        return new ConnectUnaryClientFraming(MAX_MESSAGE, null, "proto", false);
      case 2:
        return new ConnectStreamClientFraming(MAX_MESSAGE, "proto");
      default:
        return GrpcClientFraming.INSTANCE;
    }
  }

  private static void discardOutbound(EmbeddedChannel channel) {
    Object out;
    while ((out = channel.readOutbound()) != null) {
      ReferenceCountUtil.release(out);
    }
  }

  /** The call's listener: releases each message, counts how the call ended. Event loop (the test thread). */
  private static final class Ending implements ClientStreamListener {
    int endings;
    final List<Status> statuses = new ArrayList<>();

    @Override
    public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {}

    @Override
    public void onMessage(ByteBuf payload, boolean compressed) {
      try {
        assertEquals(0, endings, "no message after the call ended");
        assertTrue(payload.readableBytes() <= MAX_MESSAGE, "a message within the limit");
      } finally {
        payload.release();
      }
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      endings++;
      statuses.add(status);
    }

    @Override
    public void onUnprocessed(Status status) {
      endings++;
      statuses.add(status);
    }

    @Override
    public void onReady() {}
  }
}
