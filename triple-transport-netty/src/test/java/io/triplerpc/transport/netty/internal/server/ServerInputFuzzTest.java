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
import io.triplerpc.transport.netty.internal.TrackingAllocator;
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

  /** Each call: read every message, then answer OK with one empty message. */
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

  /** The messages of the calls of the current input, as their bytes came: event loop (the test thread). */
  private static final List<byte[]> RECEIVED = new ArrayList<>();

  private static ServerStreamListener answer(ServerStream stream, InboundRequest request) {
    stream.request(Integer.MAX_VALUE);
    return new ServerStreamListener() {
      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        byte[] bytes = new byte[payload.readableBytes()];
        payload.getBytes(payload.readerIndex(), bytes);
        RECEIVED.add(bytes);
        payload.release();
      }

      @Override
      public void onHalfClose() {
        stream.writeHeaders(new Metadata(), null, false);
        // One empty message: a unary call that ends without one is the service's fault (500).
        stream.writeMessage(stream.alloc().buffer(5).writeZero(5), false);
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

  /** What a query may hold as it is (RFC 3986's unreserved and sub-delimiters, and the query's own). */
  private static final String QUERY_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@/?%=&+";

  /**
   * A Connect GET's query: {@code input} is the query string (what follows {@code ?}), its bytes that may
   * not stand in a query percent-encoded (and the whole cut to fit Netty's request line), sent as {@code GET /fuzz.Echo/Say?...} over HTTP/1.1.
   * The answer is the one the query calls for, read by a parser of this test's own (form encoding, strict
   * escapes): 415 without {@code encoding=json|proto}, 501 UNIMPLEMENTED for another compression, 400
   * INVALID_ARGUMENT for a malformed escape or base64, else 200 with exactly the message the query holds;
   * never a 500, never no answer.
   */
  @FuzzTest
  void connectGetQueries(byte[] input) {
    StringBuilder target = new StringBuilder("/fuzz.Echo/Say?");
    for (int i = 0; i < input.length && target.length() < 3500; i++) {
      int c = input[i] & 0xff;
      if (c < 0x80 && QUERY_CHARS.indexOf(c) >= 0) {
        target.append((char) c);
      } else {
        target.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
      }
    }
    String query = target.substring("/fuzz.Echo/Say?".length());
    byte[] request = ("GET " + target + " HTTP/1.1\r\nhost: fuzz\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    String response = new String(exchange(new byte[0], List.of(request)), StandardCharsets.ISO_8859_1);
    assertTrue(response.startsWith("HTTP/1.1 "), () -> "no answer to " + target + ": " + response);
    int status = Integer.parseInt(response.substring(9, 12));
    ExpectedGet expected = ExpectedGet.of(query);
    assertEquals(expected.status, status, () -> "GET " + target + " (" + expected.why + "):\n" + response);
    if (status == 200) {
      assertEquals(1, RECEIVED.size(), "one message");
      assertArrayEquals(expected.message, RECEIVED.get(0), "the message the query holds");
    } else {
      assertEquals(List.of(), RECEIVED, "no call for a refused query");
    }
  }

  /** What a Connect GET's query calls for, read as the protocol says: the HTTP status, and the message if 200. */
  private record ExpectedGet(int status, byte[] message, String why) {

    static ExpectedGet of(String query) {
      java.util.Map<String, byte[]> first = new java.util.HashMap<>();
      for (String parameter : query.split("&", -1)) {
        int eq = parameter.indexOf('=');
        byte[] name = formDecode(eq < 0 ? parameter : parameter.substring(0, eq));
        byte[] value = formDecode(eq < 0 ? "" : parameter.substring(eq + 1));
        if (name == null || value == null) {
          return new ExpectedGet(400, null, "a malformed escape");
        }
        first.putIfAbsent(new String(name, StandardCharsets.UTF_8), value);
      }
      String encoding = text(first.get("encoding"));
      if (!"json".equals(encoding) && !"proto".equals(encoding)) {
        return new ExpectedGet(415, null, "encoding " + encoding);
      }
      String compression = text(first.get("compression"));
      if (compression != null && !compression.isEmpty() && !compression.equals("identity")
          && !compression.equals("gzip")) {
        return new ExpectedGet(501, null, "compression " + compression);
      }
      byte[] message = first.getOrDefault("message", new byte[0]);
      if ("1".equals(text(first.get("base64")))) {
        String text = new String(message, StandardCharsets.ISO_8859_1).replace('+', '-').replace('/', '_');
        try {
          message = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
          return new ExpectedGet(400, null, "malformed base64");
        }
      }
      return new ExpectedGet(200, message, "well formed");
    }

    private static String text(byte[] value) {
      return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    /** application/x-www-form-urlencoded: '+' is a space, '%' takes two hex digits; null if malformed. */
    private static byte[] formDecode(String text) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '%') {
          int high = i + 1 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
          int low = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
          if (high < 0 || low < 0) {
            return null;
          }
          out.write(high << 4 | low);
          i += 2;
        } else {
          out.write(c == '+' ? ' ' : c);
        }
      }
      return out.toByteArray();
    }
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
    RECEIVED.clear();
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
