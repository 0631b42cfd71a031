package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.RecordingAllocator;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.testing.ManualClock;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ClientCallImpl}, as the attempts of calls to one address ({@link TransportConnection#newCall}, with
 * no policy but the transparent retry): a scripted transport stands for the connection, its listener events
 * are played by the test, and deadlines run on a {@link ManualClock}. Callbacks run on the test's thread.
 */
class ClientCallImplTest {

  private static final MessageCodec<StringValue> CODEC = Serializations.codecFor(StringValue.class);
  private static final MethodDescriptor<StringValue, StringValue> UNARY =
      MethodDescriptor.of("test.Echo", "Unary", MethodType.UNARY, CODEC, CODEC, false);
  private static final MethodDescriptor<StringValue, StringValue> BIDI =
      MethodDescriptor.of("test.Echo", "Bidi", MethodType.BIDI_STREAMING, CODEC, CODEC, false);

  private final ManualClock clock = new ManualClock();
  private final ScriptedTransport transport = new ScriptedTransport();
  /** Every request buffer a call frames: each must be released by the end of the test. */
  private final RecordingAllocator alloc = new RecordingAllocator(Integer.MAX_VALUE);
  private final RecordingListener listener = new RecordingListener();
  private final TransportConnection connection =
      new TransportConnection(InetSocketAddress.createUnresolved("test", 1), transport, Runnable::run, 4 << 20, null);

  /** Every call ends, as the transport ends each stream it was given: what a call keeps is then released. */
  @AfterEach
  void close() {
    transport.streams.forEach(RecordingStream::endIfOpen);
    clock.close();
    alloc.assertAllReleased("after the calls ended");
  }

  private ClientCall<StringValue, StringValue> call(MethodDescriptor<StringValue, StringValue> method, CallOptions options) {
    return connection.newCall(method, options);
  }

  private static StringValue text(String value) {
    return StringValue.of(value);
  }

  /** A response message as the deframer hands it over: the payload, without its 5-byte prefix. */
  private static ByteBuf payload(String value) {
    return Unpooled.wrappedBuffer(text(value).toByteArray());
  }

  @Test
  void aUnaryCallSendsItsRequestAsOneFrameWithItsEndAndDeliversTheResponseInOrder() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT);
    call.start(listener, new Metadata());
    call.request(2);
    call.sendMessage(text("ping"));
    call.halfClose();
    RecordingStream stream = transport.only();
    assertEquals(List.of("start headersLater", "request 2", "message 11 end"), stream.operations);

    stream.listener.onHeaders(new Metadata(), null);
    stream.listener.onMessage(payload("pong"), false);
    stream.listener.onMessagesDelivered();
    stream.listener.onClose(Status.OK, new Metadata());
    assertEquals(List.of("headers", "message pong", "close OK"), listener.events);
  }

  @Test
  void theDeadlineCancelsTheStreamWhenTheClockReachesIt() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(2)));
    call.start(listener, new Metadata());
    RecordingStream stream = transport.only();
    assertEquals(Duration.ofSeconds(2).toNanos(), stream.timeoutNanos, "the time left goes in grpc-timeout");
    clock.advance(Duration.ofMillis(1999));
    assertTrue(stream.operations.stream().noneMatch(op -> op.startsWith("cancel")), stream.operations.toString());
    clock.advance(Duration.ofMillis(1));
    assertEquals("cancel DEADLINE_EXCEEDED Deadline exceeded after 2000 ms", stream.lastOperation());
  }

  @Test
  void aCallThatEndsBeforeItsDeadlineLeavesNoTimerBehind() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(2)));
    call.start(listener, new Metadata());
    RecordingStream stream = transport.only();
    stream.listener.onClose(Status.OK, new Metadata());
    clock.advance(Duration.ofSeconds(10));
    assertTrue(stream.operations.stream().noneMatch(op -> op.startsWith("cancel")), stream.operations.toString());
    assertEquals(List.of("close OK"), listener.events);
  }

  @Test
  void aResponseThatCannotBeReadFailsTheCallWithThatReasonNotTheServersStatus() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT);
    call.start(listener, new Metadata());
    call.request(2);
    RecordingStream stream = transport.only();
    stream.listener.onHeaders(new Metadata(), null);
    stream.listener.onMessage(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, 0x01}), false);
    stream.listener.onMessagesDelivered();
    assertTrue(stream.lastOperation().startsWith("cancel INTERNAL"), stream.operations.toString());
    stream.listener.onClose(Status.CANCELLED, new Metadata());
    assertEquals(2, listener.events.size(), listener.events.toString());
    assertTrue(listener.events.get(1).startsWith("close INTERNAL"), listener.events.toString());
  }

  @Test
  void aResponseThatCannotBeReadFailsTheCallEvenWhenTheServersOkCloseArrivesBeforeItIsRead() {
    // The callback executor runs later than the event loop: the close is seen before the message is read.
    ArrayDeque<Runnable> callbacks = new ArrayDeque<>();
    ClientCall<StringValue, StringValue> call = connection.newCall(UNARY, CallOptions.DEFAULT.withExecutor(callbacks::add));
    call.start(listener, new Metadata());
    call.request(2);
    RecordingStream stream = transport.only();
    stream.listener.onHeaders(new Metadata(), null);
    stream.listener.onMessage(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, 0x01}), false);
    stream.listener.onMessagesDelivered();
    stream.listener.onClose(Status.OK, new Metadata());
    while (!callbacks.isEmpty()) {
      callbacks.poll().run();
    }
    assertTrue(listener.events.get(listener.events.size() - 1).startsWith("close INTERNAL"), listener.events.toString());
  }

  @Test
  void aServerResetAfterTheDeadlinePassedIsDeadlineExceeded() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(2)));
    call.start(listener, new Metadata());
    RecordingStream stream = transport.only();
    stream.listener.onClose(Status.CANCELLED.withDescription("Server cancelled the stream (RST_STREAM CANCEL)"),
        new Metadata());
    assertEquals(List.of("close CANCELLED Server cancelled the stream (RST_STREAM CANCEL)"), listener.events,
        "before the deadline, a reset is a cancel");

    RecordingListener late = new RecordingListener();
    ClientCall<StringValue, StringValue> lateCall = call(UNARY, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(2)));
    lateCall.start(late, new Metadata());
    RecordingStream lateStream = transport.streams.get(1);
    // The server's timer beat this side's: its reset comes as the deadline passes.
    clock.advance(Duration.ofSeconds(2));
    lateStream.listener.onClose(Status.CANCELLED.withDescription("Server cancelled the stream (RST_STREAM CANCEL)"),
        new Metadata());
    assertEquals(1, late.events.size(), late.events::toString);
    assertTrue(late.events.get(0).startsWith("close DEADLINE_EXCEEDED Deadline exceeded after 2000 ms"), late.events::toString);
  }

  @Test
  void aUnaryCallTheServerNeverProcessedGoesAgainOnceWithTheSameRequestAndDemand() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(5)));
    call.start(listener, new Metadata());
    call.request(2);
    call.sendMessage(text("ping"));
    call.halfClose();
    RecordingStream first = transport.streams.get(0);
    clock.advance(Duration.ofSeconds(1));
    first.listener.onUnprocessed(Status.UNAVAILABLE.withDescription("refused"));

    RecordingStream second = transport.streams.get(1);
    assertEquals(List.of("start headersLater", "request 2", "message 11 end"), second.operations);
    assertEquals(first.written.get(0), second.written.get(0), "the same request bytes");
    assertEquals(Duration.ofSeconds(4).toNanos(), second.timeoutNanos, "the deadline that is left");
    assertTrue(listener.events.isEmpty(), "the caller sees nothing of the first attempt");

    second.listener.onUnprocessed(Status.UNAVAILABLE.withDescription("refused again"));
    assertEquals(2, transport.streams.size(), "one transparent retry only");
    assertEquals(List.of("close UNAVAILABLE refused again"), listener.events);
  }

  @Test
  void aCancelledCallIsNotRetried() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT);
    call.start(listener, new Metadata());
    call.sendMessage(text("ping"));
    call.halfClose();
    call.cancel("user gave up", null);
    RecordingStream stream = transport.only();
    assertEquals("cancel CANCELLED user gave up", stream.lastOperation());
    stream.listener.onUnprocessed(Status.UNAVAILABLE);
    assertEquals(1, transport.streams.size());
    assertEquals(List.of("close CANCELLED user gave up"), listener.events, "the call ends as its caller ended it");
  }

  @Test
  void noMessageIsDeliveredAfterACancelAndTheCloseReportsTheCancel() {
    ArrayDeque<Runnable> callbacks = new ArrayDeque<>();
    ClientCall<StringValue, StringValue> call = connection.newCall(BIDI, CallOptions.DEFAULT.withExecutor(callbacks::add));
    // The application cancels while it handles the first message; the rest was already on its way.
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onMessage(StringValue message) {
        listener.onMessage(message);
        call.cancel("enough", null);
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        listener.onClose(status, trailers);
      }
    }, new Metadata());
    call.request(5);
    RecordingStream stream = transport.only();
    stream.listener.onMessage(payload("one"), false);
    stream.listener.onMessage(payload("two"), false);
    stream.listener.onMessagesDelivered();
    stream.listener.onClose(Status.OK, new Metadata());
    while (!callbacks.isEmpty()) {
      callbacks.poll().run();
    }
    assertEquals(List.of("message one", "close CANCELLED enough"), listener.events);
    assertEquals("cancel CANCELLED enough", stream.lastOperation());
  }


  @Test
  void aStreamingCallTheServerNeverProcessedReplaysItsRequestsAndHalfCloseInOrder() {
    ClientCall<StringValue, StringValue> call = call(BIDI, CallOptions.DEFAULT);
    call.start(listener, new Metadata());
    call.request(1);
    call.sendMessage(text("a"));
    call.sendMessage(text("bb"));
    call.halfClose();
    RecordingStream first = transport.streams.get(0);
    assertEquals(List.of("start headersNow", "request 1", "message 8", "message 9", "halfClose"), first.operations);
    first.listener.onUnprocessed(Status.UNAVAILABLE);

    RecordingStream second = transport.streams.get(1);
    assertEquals(List.of("start headersNow", "request 1", "message 8", "message 9", "halfClose"), second.operations);
    assertEquals(first.written, second.written);
    second.listener.onHeaders(new Metadata(), null);
    second.listener.onClose(Status.OK, new Metadata());
    assertEquals(List.of("headers", "close OK"), listener.events);
  }

  @Test
  void aStreamingCallThatHeardFromTheServerIsNeverReplayed() {
    ClientCall<StringValue, StringValue> call = call(BIDI, CallOptions.DEFAULT);
    call.start(listener, new Metadata());
    call.sendMessage(text("a"));
    RecordingStream stream = transport.only();
    stream.listener.onHeaders(new Metadata(), null);
    stream.listener.onUnprocessed(Status.UNAVAILABLE.withDescription("gone"));
    assertEquals(1, transport.streams.size());
    assertEquals(List.of("headers", "close UNAVAILABLE gone"), listener.events);
  }

  @Test
  void misuseIsRefusedAndLeaksNothing() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT);
    assertThrows(IllegalStateException.class, () -> call.sendMessage(text("early")));
    assertThrows(IllegalStateException.class, () -> call.request(1));
    assertThrows(IllegalStateException.class, call::halfClose);
    call.start(listener, new Metadata());
    assertThrows(IllegalStateException.class, () -> call.start(listener, new Metadata()));
    call.sendMessage(text("one"));
    assertThrows(IllegalStateException.class, () -> call.sendMessage(text("two")), "a unary call sends one request");
    call.halfClose();
    assertThrows(IllegalStateException.class, () -> call.sendMessage(text("after")));
    assertEquals(1, transport.only().written.size());
  }

  @Test
  void aRequestHeldForAHalfCloseThatNeverComesIsReleasedWhenTheStreamEnds() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT);
    call.start(listener, new Metadata());
    call.sendMessage(text("held until the half-close"));
    transport.only().listener.onClose(Status.UNAVAILABLE.withDescription("gone"), new Metadata());
    alloc.assertAllReleased("once the stream ended");
    call.halfClose();
    assertEquals(List.of("start headersLater"), transport.only().operations, "nothing written after the end");
    assertEquals(List.of("close UNAVAILABLE gone"), listener.events);
  }

  @Test
  void aCallCancelledBeforeItStartsEndsCancelledWithoutAStream() {
    ClientCall<StringValue, StringValue> call = call(UNARY, CallOptions.DEFAULT);
    call.cancel("before start", null);
    call.start(listener, new Metadata());
    call.sendMessage(text("ignored"));
    call.halfClose();
    assertEquals(List.of("close CANCELLED Call cancelled before it started"), listener.events);
    assertEquals(0, transport.streams.size());
  }

  /** A transport that hands out recording streams and keeps time by the test's clock. */
  private final class ScriptedTransport implements ClientTransport {

    final List<RecordingStream> streams = new ArrayList<>();

    RecordingStream only() {
      assertEquals(1, streams.size(), "streams");
      return streams.get(0);
    }

    @Override
    public ClientStream newStream(
        MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
      RecordingStream stream = new RecordingStream(timeoutNanos);
      streams.add(stream);
      return stream;
    }

    @Override
    public boolean isTls() {
      return false;
    }

    @Override
    public boolean isActive() {
      return true;
    }

    @Override
    public ByteBufAllocator alloc() {
      return alloc;
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return clock.scheduler();
    }

    @Override
    public long nanoTime() {
      return clock.nanoTime();
    }

    @Override
    public WriteStats writeStats() {
      return new WriteStats(0, 0);
    }

    @Override
    public void shutdown() {}
  }

  /** A stream that records what the call asks of it, and the bytes of each message it writes. */
  private static final class RecordingStream implements ClientStream {

    final long timeoutNanos;
    final List<String> operations = new ArrayList<>();
    final List<String> written = new ArrayList<>();
    ClientStreamListener listener;

    RecordingStream(long timeoutNanos) {
      this.timeoutNanos = timeoutNanos;
    }

    String lastOperation() {
      return operations.get(operations.size() - 1);
    }

    /** Whether the test ended the stream (a close, or the server never processed it). */
    private boolean ended;

    void endIfOpen() {
      if (listener != null && !ended) {
        listener.onClose(Status.CANCELLED.withDescription("test over"), new Metadata());
      }
    }

    @Override
    public void start(ClientStreamListener call, boolean headersNow) {
      // The call's listener, noting when the test ends the stream.
      this.listener = new ClientStreamListener() {
        @Override
        public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {
          call.onHeaders(headers, responseEncoding);
        }

        @Override
        public void onMessage(ByteBuf payload, boolean compressed) {
          call.onMessage(payload, compressed);
        }

        @Override
        public void onMessagesDelivered() {
          call.onMessagesDelivered();
        }

        @Override
        public void onClose(Status status, Metadata trailers) {
          ended = true;
          call.onClose(status, trailers);
        }

        @Override
        public void onUnprocessed(Status status) {
          ended = true;
          call.onUnprocessed(status);
        }

        @Override
        public void onReady() {
          call.onReady();
        }
      };
      operations.add(headersNow ? "start headersNow" : "start headersLater");
    }

    @Override
    public void request(int count) {
      operations.add("request " + count);
    }

    @Override
    public void writeMessage(ByteBuf framed, boolean endOfStream) {
      operations.add("message " + framed.readableBytes() + (endOfStream ? " end" : ""));
      written.add(ByteBufUtil.hexDump(framed));
      framed.release();
    }

    @Override
    public void halfClose() {
      operations.add("halfClose");
    }

    @Override
    public void cancel(Status status) {
      operations.add("cancel " + status.code() + (status.description() == null ? "" : " " + status.description()));
    }

    @Override
    public boolean isReady() {
      return true;
    }
  }

  /** Records what the call tells its user. */
  private static final class RecordingListener extends ClientCall.Listener<StringValue> {

    final List<String> events = new ArrayList<>();

    @Override
    public void onHeaders(Metadata headers) {
      events.add("headers");
    }

    @Override
    public void onMessage(StringValue message) {
      events.add("message " + message.getValue());
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      assertNull(events.stream().filter(e -> e.startsWith("close")).findFirst().orElse(null), "one close");
      events.add("close " + status.code() + (status.description() == null ? "" : " " + status.description()));
    }
  }
}
