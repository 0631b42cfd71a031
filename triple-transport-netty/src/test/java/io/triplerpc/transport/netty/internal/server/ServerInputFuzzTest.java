package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.internal.wire.MessageDeframer;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzz targets for what a server reads from the network (Jazzer): a connection's bytes end to end
 * through the real pipeline (protocol detection, HTTP/1.1 and HTTP/2 codecs, the web protocols'
 * framings, Triple's handlers) on an {@link EmbeddedChannel}, gRPC-Web text's base64, and the 5-byte
 * envelopes of gRPC, gRPC-Web and Connect streaming. {@code mvn verify} runs each over its kept inputs
 * ({@code src/test/resources/.../ServerInputFuzzTestInputs/<target>/}); {@code scripts/fuzz.sh} fuzzes
 * one for as long as asked, and an input that found a fault is kept there.
 *
 * <p>Beyond "no exception escapes": a connection answers HTTP/1.1 with an HTTP/1.1 response, a body of
 * gRPC-Web text decodes exactly as base64 does group by group (or is refused as malformed), the
 * deframer never delivers more than its maximum message size nor more bytes than came in, and every
 * buffer is released (the build runs with Netty's leak detector at PARANOID).
 */
class ServerInputFuzzTest {

  /** Messages larger than this are refused, so that an input cannot ask the server to hold much. */
  private static final int MAX_MESSAGE = 4096;

  private static NettyServerTransport transport;
  private static final ServerTransportOptions OPTIONS = ServerTransportOptions.DEFAULTS;

  /** Each call: read every message, then answer OK with an empty body. */
  private static final ServerTransportListener ECHO = ServerInputFuzzTest::answer;

  @BeforeAll
  static void start() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), OPTIONS, ECHO);
  }

  @AfterAll
  static void stop() throws Exception {
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  private static ServerStreamListener answer(ServerStream stream, InboundRequest request) {
    stream.request(Integer.MAX_VALUE);
    return new ServerStreamListener() {
      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        payload.release();
      }

      @Override
      public void onHalfClose() {
        stream.writeHeaders(new Metadata(), null, false);
        stream.close(Status.OK, new Metadata());
      }

      @Override
      public void onCancel(Status status) {}

      @Override
      public void onComplete() {}

      @Override
      public void onReady() {}
    };
  }

  /**
   * A connection's bytes: the first byte of {@code input} sets the size of the pieces they arrive in
   * (1 to 4,096 bytes), the rest is what the client sends. Whatever it is, the pipeline copes, and an
   * HTTP/1.x request is answered in HTTP/1.x.
   */
  @FuzzTest
  void connectionBytes(byte[] input) {
    List<byte[]> chunks = chunks(input);
    byte[] response = exchange(new byte[0], chunks);
    if (!chunks.isEmpty() && startsWith(chunks.get(0), "GET ", "POST ", "PUT ", "OPTIONS ") && response.length > 0) {
      String head = new String(response, 0, Math.min(response.length, 7), StandardCharsets.ISO_8859_1);
      assertEquals("HTTP/1.", head, "an HTTP/1.x request gets an HTTP/1.x answer");
    }
  }

  /** An HTTP/2 connection: the preface, then {@code input} as frames, in pieces as above. */
  @FuzzTest
  void http2Frames(byte[] input) {
    byte[] preface = new byte[Http2CodecUtil.connectionPrefaceBuf().readableBytes()];
    Http2CodecUtil.connectionPrefaceBuf().getBytes(0, preface);
    exchange(preface, chunks(input));
  }

  /** The bytes after the first, in pieces of the size the first byte sets. */
  private static List<byte[]> chunks(byte[] input) {
    List<byte[]> chunks = new ArrayList<>();
    if (input.length < 2) {
      return chunks;
    }
    int size = 1 + (input[0] & 0xff) * 16;
    for (int i = 1; i < input.length; i += size) {
      chunks.add(java.util.Arrays.copyOfRange(input, i, Math.min(input.length, i + size)));
    }
    return chunks;
  }

  /**
   * Writes {@code first} then each chunk into a new connection; returns what the server wrote. Every
   * buffer the connection allocated must be released once it is gone.
   */
  private static byte[] exchange(byte[] first, List<byte[]> chunks) {
    EmbeddedChannel channel = new EmbeddedChannel();
    TrackingAllocator alloc = new TrackingAllocator();
    channel.config().setAllocator(alloc);
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    try {
      transport.initConnection(channel, ECHO, OPTIONS);
      if (first.length > 0) {
        channel.writeInbound(Unpooled.wrappedBuffer(first));
      }
      for (byte[] chunk : chunks) {
        if (!channel.isOpen()) {
          break;
        }
        channel.writeInbound(Unpooled.wrappedBuffer(chunk));
        channel.runPendingTasks();
        drain(channel, written);
      }
      channel.runPendingTasks();
      drain(channel, written);
      // Anything the pipeline failed with and did not handle fails here.
      channel.checkException();
    } finally {
      // The client goes away: the socket closes under the pipeline. (A close through the pipeline would
      // be HTTP/2's graceful one, which waits for the open streams, and an embedded channel never
      // times it out.)
      channel.unsafe().close(channel.voidPromise());
      channel.runPendingTasks();
      channel.finishAndReleaseAll();
    }
    try {
      List<String> held = alloc.unreleased();
      assertTrue(held.isEmpty(), () -> held.size() + " buffer(s) still held after the connection closed:\n"
          + String.join("\n----\n", held));
    } finally {
      alloc.releaseAll();
    }
    return written.toByteArray();
  }

  private static void drain(EmbeddedChannel channel, ByteArrayOutputStream written) {
    Object out;
    while ((out = channel.readOutbound()) != null) {
      if (out instanceof ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        written.writeBytes(bytes);
      }
      io.netty.util.ReferenceCountUtil.release(out);
    }
  }

  /** gRPC-Web text arriving in pieces: decoded as base64 decodes it group by group, or refused whole. */
  @FuzzTest
  void grpcWebText(FuzzedDataProvider data) {
    GrpcWebFraming framing = new GrpcWebFraming(AsciiString.cached("application/grpc-web-text"), true);
    List<byte[]> chunks = new ArrayList<>();
    while (data.remainingBytes() > 0) {
      chunks.add(data.consumeBytes(1 + data.consumeInt(0, 64)));
    }
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteArrayOutputStream decoded = new ByteArrayOutputStream();
    boolean refused = false;
    for (byte[] chunk : chunks) {
      all.writeBytes(chunk);
      ByteBuf out;
      try {
        out = framing.requestBytes(Unpooled.wrappedBuffer(chunk));
      } catch (IllegalArgumentException malformed) {
        refused = true;
        break;
      }
      byte[] bytes = new byte[out.readableBytes()];
      out.readBytes(bytes);
      out.release();
      decoded.writeBytes(bytes);
    }
    byte[] groups = wholeGroups(all.toByteArray());
    if (refused) {
      assertThrows(IllegalArgumentException.class, () -> decodeGroups(groups), "refused only what base64 refuses");
    } else {
      byte[] expected;
      try {
        expected = decodeGroups(groups);
      } catch (IllegalArgumentException e) {
        throw new AssertionError("accepted what base64 refuses: " + e.getMessage(), e);
      }
      assertArrayEquals(expected, decoded.toByteArray());
    }
  }

  /** The characters of {@code text} without line breaks, up to the last whole group of four. */
  private static byte[] wholeGroups(byte[] text) {
    ByteArrayOutputStream chars = new ByteArrayOutputStream();
    for (byte b : text) {
      if (b != '\r' && b != '\n') {
        chars.write(b);
      }
    }
    byte[] all = chars.toByteArray();
    return java.util.Arrays.copyOf(all, all.length - all.length % 4);
  }

  /** Each group of four decoded on its own, as the padding of one group ends its run. */
  private static byte[] decodeGroups(byte[] groups) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < groups.length; i += 4) {
      out.writeBytes(Base64.getDecoder().decode(java.util.Arrays.copyOfRange(groups, i, i + 4)));
    }
    return out.toByteArray();
  }

  /** Envelopes in pieces, read as the reader asks: within the limit, no more than came in, all released. */
  @FuzzTest
  void envelopes(FuzzedDataProvider data) {
    int endFrameFlag = data.pickValue(new int[] {0, 0x80, 0x02});
    List<ByteBuf> delivered = new ArrayList<>();
    Status[] error = new Status[1];
    boolean[] ended = new boolean[1];
    MessageDeframer deframer = new MessageDeframer(new MessageDeframer.Sink() {
      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        assertTrue(error[0] == null && !ended[0], "no message after the end");
        assertTrue(payload.readableBytes() <= MAX_MESSAGE, "a message within the limit");
        delivered.add(payload);
      }

      @Override
      public void onBytesConsumed(int bytes) {}

      @Override
      public void onEndOfStream() {
        ended[0] = true;
      }

      @Override
      public void onDeframeError(Status status) {
        assertTrue(status.code() == Status.Code.INTERNAL || status.code() == Status.Code.RESOURCE_EXHAUSTED,
            status.toString());
        error[0] = status;
      }

      @Override
      public void onEndFrame(ByteBuf payload, boolean compressed) {
        ended[0] = true;
        payload.release();
      }
    }, MAX_MESSAGE, ByteBufAllocator.DEFAULT, endFrameFlag);
    long received = 0;
    try {
      while (data.remainingBytes() > 0 && !deframer.isClosed()) {
        if (data.consumeBoolean()) {
          deframer.request(data.consumeInt(1, 4));
        }
        byte[] chunk = data.consumeBytes(1 + data.consumeInt(0, 512));
        received += chunk.length;
        deframer.deframe(Unpooled.wrappedBuffer(chunk), data.remainingBytes() == 0);
      }
      deframer.request(Integer.MAX_VALUE);
      long bytes = 0;
      for (ByteBuf message : delivered) {
        bytes += message.readableBytes() + 5;
      }
      assertTrue(bytes <= received, "no more bytes delivered than came in");
    } finally {
      deframer.close();
      delivered.forEach(ByteBuf::release);
    }
  }

  private static boolean startsWith(byte[] bytes, String... prefixes) {
    for (String prefix : prefixes) {
      byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
      if (bytes.length >= p.length && java.util.Arrays.equals(bytes, 0, p.length, p, 0, p.length)) {
        return true;
      }
    }
    return false;
  }
}
