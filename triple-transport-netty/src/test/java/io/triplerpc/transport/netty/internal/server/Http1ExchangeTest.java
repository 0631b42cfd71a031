package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A web call over HTTP/1.1 on an {@link EmbeddedChannel}: the request body streams into the call, the
 * connection stops reading while the call leaves too much of it unread, and reads again once the
 * response has ended, so that the rest of the body is dropped and the next request served.
 */
class Http1ExchangeTest {

  private final List<ServerStream> streams = new ArrayList<>();
  private final List<String> events = new ArrayList<>();
  /** Takes no message: whatever arrives stays with the deframer. */
  private final ServerTransportListener listener = (stream, request) -> {
    streams.add(stream);
    events.add("created " + request.path());
    return new ServerStreamListener() {
      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        payload.release();
      }

      @Override
      public void onHalfClose() {
        events.add("halfClose");
      }

      @Override
      public void onCancel(Status status) {
        events.add("cancel " + status.code());
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
  private EmbeddedChannel channel;

  @BeforeEach
  void connect() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
    channel = new EmbeddedChannel();
    transport.initConnection(channel, listener, ServerTransportOptions.DEFAULTS);
  }

  @AfterEach
  void close() throws Exception {
    channel.finishAndReleaseAll();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  private void write(String ascii) {
    channel.writeInbound(Unpooled.copiedBuffer(ascii, StandardCharsets.ISO_8859_1));
    channel.runPendingTasks();
  }

  private String written() {
    StringBuilder out = new StringBuilder();
    ByteBuf buf;
    while ((buf = channel.readOutbound()) != null) {
      out.append(buf.toString(StandardCharsets.ISO_8859_1));
      buf.release();
    }
    return out.toString();
  }

  /** {@code count} Connect streaming messages of {@code size} bytes each, as one chunk. */
  private static String chunkOfMessages(int count, int size) {
    StringBuilder messages = new StringBuilder();
    for (int i = 0; i < count; i++) {
      messages.append((char) 0).append((char) 0).append((char) 0).append((char) (size >> 8)).append((char) (size & 0xff))
          .append("x".repeat(size));
    }
    return Integer.toHexString(messages.length()) + "\r\n" + messages + "\r\n";
  }

  @Test
  void readsStopWhileTheCallLeavesTheBodyUnreadAndGoOnOnceItsResponseEnded() {
    write("POST /svc/Stream HTTP/1.1\r\nHost: x\r\nContent-Type: application/connect+json\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n");
    write(chunkOfMessages(100, 1000));
    assertFalse(channel.config().isAutoRead(), "100 KB the call did not ask for: the connection stops reading");

    streams.get(0).close(Status.INTERNAL.withDescription("gave up"), new Metadata());
    channel.runPendingTasks();
    String response = written();
    assertTrue(response.startsWith("HTTP/1.1 200 OK"), response);
    assertTrue(response.contains("{\"error\":{\"code\":\"internal\",\"message\":\"gave up\"}}"), response);
    assertTrue(channel.config().isAutoRead(), "the rest of the body is read, and dropped");

    write(chunkOfMessages(10, 1000));
    assertTrue(channel.config().isAutoRead(), "what the ended call left unread holds no reads back");
    write("0\r\n\r\n");
    write("POST /svc/Unary HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    assertEquals(List.of("created /svc/Stream", "complete", "created /svc/Unary", "halfClose"), events,
        "the next request on the connection is served");
    streams.get(1).close(Status.OK, new Metadata());
  }
}
