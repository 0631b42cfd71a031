package io.triplerpc.transport.netty.internal.client;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.DATA;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.FLAG_END_STREAM;
import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.HEADERS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.ReferenceCountUtil;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.wire.GrpcTimeout;
import io.triplerpc.internal.wire.MessageEncoding;
import java.io.IOException;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client stream's life in {@link NettyClientHandler} on an {@link EmbeddedClientConnection}, the test
 * playing the server frame by frame: what the call writes, and how each way a server can end a stream
 * reaches the call.
 */
class ClientStreamLifecycleTest {

  private EmbeddedClientConnection connection;
  private final List<String> events = new ArrayList<>();
  private final ClientStreamListener listener = new ClientStreamListener() {
    @Override
    public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {
      events.add("headers");
    }

    @Override
    public void onMessage(ByteBuf payload, boolean compressed) {
      events.add("message " + payload.toString(StandardCharsets.UTF_8));
      payload.release();
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      events.add("close " + status.code() + (status.description() == null ? "" : " " + status.description()));
    }

    @Override
    public void onUnprocessed(Status status) {
      events.add("unprocessed " + status.code());
    }

    @Override
    public void onReady() {}
  };

  @BeforeEach
  void connect() throws Exception {
    connection = EmbeddedClientConnection.withDefaults();
  }

  @AfterEach
  void close() {
    connection.close();
  }

  private static ByteBuf framed(String text) {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    return Unpooled.buffer().writeByte(0).writeInt(payload.length).writeBytes(payload);
  }

  private static byte[] bytes(ByteBuf buf) {
    byte[] out = new byte[buf.readableBytes()];
    buf.readBytes(out);
    buf.release();
    return out;
  }

  private static Http2Headers trailers(Status.Code code, String message) {
    Http2Headers trailers = new DefaultHttp2Headers();
    trailers.add("grpc-status", String.valueOf(code.value()));
    if (message != null) {
      trailers.add("grpc-message", message);
    }
    return trailers;
  }

  @Test
  void aUnaryCallWritesItsHeadersAndOneDataFrameThenReadsItsResponseInOrder() {
    NettyClientStream stream = connection.startCall("/test.Echo/Unary", listener);
    stream.request(2);
    stream.writeMessage(framed("ping"), true);
    connection.server.runPendingTasks();
    List<Frame> frames = connection.server.frames();
    assertEquals(List.of(HEADERS, DATA), frames.stream().map(Frame::type).toList());
    Http2Headers request = connection.server.headers(frames.get(0));
    assertEquals("/test.Echo/Unary", request.path().toString());
    assertTrue(frames.get(1).has(FLAG_END_STREAM), "the one request ends the stream");
    int id = frames.get(0).streamId();

    connection.server.sendGrpcResponseHeaders(id);
    connection.server.sendFrame(DATA, 0, id, bytes(framed("pong")));
    connection.server.sendHeaders(id, trailers(Status.Code.OK, null), true);
    connection.server.runPendingTasks();
    assertEquals(List.of("headers", "message pong", "close OK"), events);
  }

  @Test
  void grpcWebTrailersInTheBodyWaitForTheReaderAfterTheStreamClosed() {
    NettyClientStream stream = connection.startCall("/test.Echo/Stream", listener, new GrpcWebClientFraming(4 << 20, "proto"));
    stream.writeMessage(framed("ping"), true);
    connection.server.runPendingTasks();
    int id = connection.server.frames().get(0).streamId();
    Http2Headers head = new DefaultHttp2Headers().status("200");
    head.add("content-type", "application/grpc-web+proto");
    connection.server.sendHeaders(id, head, false);
    byte[] trailerBlock = "grpc-status: 0\r\nx-done: yes\r\n".getBytes(StandardCharsets.US_ASCII);
    ByteBuf body = Unpooled.buffer().writeBytes(framed("one")).writeBytes(framed("two"))
        .writeByte(0x80).writeInt(trailerBlock.length).writeBytes(trailerBlock);
    // The whole body, and the end of the HTTP/2 stream, before the reader asked for anything.
    connection.server.sendFrame(DATA, FLAG_END_STREAM, id, bytes(body));
    connection.server.runPendingTasks();
    assertEquals(List.of("headers"), events, "the stream closed, the call did not");
    stream.request(5);
    connection.server.runPendingTasks();
    assertEquals(List.of("headers", "message one", "message two", "close OK"), events);
  }

  @Test
  void aTrailersOnlyAnswerClosesWithItsStatusAndMessage() {
    NettyClientStream stream = connection.startCall("/test.Echo/Unary", listener);
    stream.writeMessage(framed("ping"), true);
    connection.server.runPendingTasks();
    int id = connection.server.frames().get(0).streamId();
    Http2Headers answer = trailers(Status.Code.NOT_FOUND, "no such user");
    answer.status("200").add("content-type", "application/grpc");
    connection.server.sendHeaders(id, answer, true);
    assertEquals(List.of("close NOT_FOUND no such user"), events);
  }

  @Test
  void aTrailersOnlyAnswerWithAnHttpErrorStatusClosesWithItsGrpcStatus() {
    // Apache Dubbo 3.3 answers errors so: 500, application/grpc, grpc-status in the one header block.
    connection.startCall("/test.Echo/Unary", listener);
    int id = connection.server.frames().get(0).streamId();
    Http2Headers answer = trailers(Status.Code.INVALID_ARGUMENT, "bad name");
    answer.status("500").add("content-type", "application/grpc");
    connection.server.sendHeaders(id, answer, true);
    assertEquals(List.of("close INVALID_ARGUMENT bad name"), events);
  }

  @Test
  void anHttpErrorWithAGrpcContentTypeButNoGrpcStatusClosesWithTheMappedStatus() {
    connection.startCall("/test.Echo/Unary", listener);
    int id = connection.server.frames().get(0).streamId();
    Http2Headers answer = new DefaultHttp2Headers().status("503");
    answer.add("content-type", "application/grpc");
    connection.server.sendHeaders(id, answer, true);
    assertEquals(1, events.size(), events.toString());
    assertTrue(events.get(0).startsWith("close UNAVAILABLE"), events.toString());
  }

  @Test
  void anHttpErrorInsteadOfGrpcClosesWithTheMappedStatus() {
    connection.startCall("/test.Echo/Unary", listener);
    int id = connection.server.frames().get(0).streamId();
    Http2Headers unavailable = new DefaultHttp2Headers().status("503");
    unavailable.add("content-type", "text/plain");
    connection.server.sendHeaders(id, unavailable, true);
    assertEquals(1, events.size(), events.toString());
    assertTrue(events.get(0).startsWith("close UNAVAILABLE"), events.toString());
  }

  @Test
  void aServerResetClosesTheCallAsCancelled() {
    connection.startCall("/test.Echo/Stream", listener);
    int id = connection.server.frames().get(0).streamId();
    connection.server.sendRstStream(id, 0x8);
    assertEquals(1, events.size(), events.toString());
    assertTrue(events.get(0).startsWith("close CANCELLED"), events.toString());
  }

  @Test
  void aStreamAboveTheGoAwaysLastStreamWasNeverProcessedAndTheConnectionTakesNoMoreCalls() {
    connection.startCall("/test.Echo/Stream", listener);
    int id = connection.server.frames().get(0).streamId();
    connection.server.sendGoAway(id - 2 < 0 ? 0 : id - 2, 0, "restarting");
    connection.server.runPendingTasks();
    assertEquals(List.of("unprocessed UNAVAILABLE"), events);
    assertFalse(connection.connection.isUsable(), "new calls go to a new connection");
  }

  @Test
  void aStreamAtOrBelowTheGoAwaysLastStreamGoesOnToItsEnd() {
    connection.startCall("/test.Echo/Stream", listener);
    int id = connection.server.frames().get(0).streamId();
    connection.server.sendGoAway(id, 0, "draining");
    connection.server.runPendingTasks();
    assertTrue(events.isEmpty(), events.toString());
    connection.server.sendGrpcResponseHeaders(id);
    connection.server.sendHeaders(id, trailers(Status.Code.OK, null), true);
    assertEquals(List.of("headers", "close OK"), events);
  }

  @Test
  void aStreamThatWaitedForASlotAnnouncesTheDeadlineLeftWhenItOpens() throws Exception {
    // One stream at a time, as the server says.
    connection.server.sendFrame(0x4, 0, 0, new byte[] {0, 3, 0, 0, 0, 1});
    connection.server.runPendingTasks();
    connection.server.frames();
    connection.startCall("/a.B/First", listener);
    NettyClientStream waiting = connection.startCall("/a.B/Second", listener, GrpcClientFraming.INSTANCE, TimeUnit.SECONDS.toNanos(10));
    List<Frame> sent = connection.server.frames(HEADERS);
    assertEquals(1, sent.size(), "the second call waits for the first's slot");
    connection.server.headers(sent.get(0)); // HPACK: every block is decoded, in order

    connection.server.advance(Duration.ofSeconds(3));
    connection.server.sendRstStream(sent.get(0).streamId(), 0x8);
    connection.server.runPendingTasks();
    List<Frame> opened = connection.server.frames(HEADERS);
    assertEquals(1, opened.size());
    assertEquals(waiting.id(), opened.get(0).streamId());
    long announced = GrpcTimeout.requestTimeoutNanos(connection.server.headers(opened.get(0)).get("grpc-timeout"));
    assertEquals(TimeUnit.SECONDS.toNanos(7), announced, 1_000_000, "10 s less the 3 s it waited");
  }

  @Test
  void aCallWhoseHeadersTheSocketRefusedWasNeverProcessedAndTheConnectionTakesNoMoreCalls() {
    // A socket reset that the read side has not reported yet: the write fails, then the channel closes.
    connection.server.channel().pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
      @Override
      public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ReferenceCountUtil.release(msg);
        promise.setFailure(new IOException("Connection reset by peer"));
      }
    });
    connection.startCall("/test.Echo/Unary", listener);
    assertEquals(List.of("unprocessed UNAVAILABLE"), events, "its HEADERS never left: it may go again");
    assertFalse(connection.connection.isUsable(), "the next attempt takes a new connection");
  }

  @Test
  void aCallWhoseHeadersLeftIsNotRetriedWhenALaterWriteFails() {
    connection.startCall("/test.Echo/Stream", listener);
    connection.server.frames();
    connection.server.channel().pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
      @Override
      public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ReferenceCountUtil.release(msg);
        promise.setFailure(new IOException("Connection reset by peer"));
      }
    });
    connection.server.sendPing(42); // the client's PING ACK write fails: the connection is gone for new calls
    connection.server.runPendingTasks();
    assertTrue(events.isEmpty() || events.get(0).startsWith("close UNAVAILABLE"), events.toString());
    assertFalse(events.contains("unprocessed UNAVAILABLE"), "the server may have processed it");
  }
}
