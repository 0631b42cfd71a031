package io.triplerpc.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.PeerInfo;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.testing.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ServerCallImpl} alone: a recording stream stands for the HTTP/2 stream, the test plays its
 * events, the handler runs on the test's thread, and the deadline on a {@link ManualClock}.
 */
class ServerCallImplTest {

  private static final MessageCodec<StringValue> CODEC = Serializations.codecFor(StringValue.class);
  private static final MethodDescriptor<StringValue, StringValue> UNARY =
      MethodDescriptor.of("test.Echo", "Unary", MethodType.UNARY, CODEC, CODEC, false);
  private static final MethodDescriptor<StringValue, StringValue> SERVER_STREAMING =
      MethodDescriptor.of("test.Echo", "Many", MethodType.SERVER_STREAMING, CODEC, CODEC, false);

  private final ManualClock clock = new ManualClock();
  private final RecordingStream stream = new RecordingStream();
  private final List<String> events = new ArrayList<>();

  @AfterEach
  void close() {
    clock.close();
  }

  private ServerCallImpl<StringValue, StringValue> call(MethodDescriptor<StringValue, StringValue> method, Duration timeout) {
    InboundRequest request = new InboundRequest(method.path(), new Metadata(), timeout.toNanos(), null, null);
    return new ServerCallImpl<>(stream, method, request, Runnable::run, 4 << 20);
  }

  private static ByteBuf payload(String value) {
    return Unpooled.wrappedBuffer(StringValue.of(value).toByteArray());
  }

  /** Answers each request with its text twice over, and records what it is told. */
  private ServerCallHandler<StringValue, StringValue> echo() {
    return (call, headers) -> {
      events.add("start");
      return new ServerCall.Listener<>() {
        @Override
        public void onMessage(StringValue message) {
          events.add("message " + message.getValue());
          call.sendMessage(StringValue.of(message.getValue() + message.getValue()));
        }

        @Override
        public void onHalfClose() {
          events.add("halfClose");
          call.close(Status.OK, new Metadata());
        }

        @Override
        public void onCancel() {
          events.add("cancel");
        }
      };
    };
  }

  @Test
  void aUnaryCallStartsWithItsRequestAndAnswersInOneWrite() {
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ZERO);
    call.start(echo(), null);
    assertEquals(List.of("request 2"), stream.operations, "the request and the half-close, asked on the event loop");
    assertTrue(events.isEmpty(), "the handler waits for its request");
    call.onMessage(payload("ab"), false);
    assertTrue(events.isEmpty(), "and for the half-close that follows it");
    call.onHalfClose();
    assertEquals(List.of("start", "message ab", "halfClose"), events);
    assertEquals(List.of("request 2", "headers held", "message 11 held", "close OK"), stream.operations);
  }

  @Test
  void aUnaryCallIsOneHandOffToItsExecutor() {
    AtomicInteger handOffs = new AtomicInteger();
    ServerCallImpl<StringValue, StringValue> call = new ServerCallImpl<>(stream, UNARY,
        new InboundRequest(UNARY.path(), new Metadata(), 0, null, null), task -> {
          handOffs.incrementAndGet();
          task.run();
        }, 4 << 20);
    call.start(echo(), null);
    call.onMessage(payload("ab"), false);
    call.onHalfClose();
    call.onComplete();
    assertEquals(List.of("start", "message ab", "halfClose"), events);
    assertEquals(1, handOffs.get(), "start, request and half-close together; nobody listens to onComplete");
  }

  @Test
  void aUnaryCallsCallbacksRunInItsContextAndLeaveNoneBehind() {
    List<Boolean> inContext = new ArrayList<>();
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ofSeconds(3));
    call.start((c, headers) -> {
      inContext.add(ServerContext.current().method() == UNARY);
      return new ServerCall.Listener<>() {
        @Override
        public void onMessage(StringValue message) {
          inContext.add(ServerContext.current().method() == UNARY);
        }

        @Override
        public void onHalfClose() {
          inContext.add(ServerContext.current().method() == UNARY);
          c.close(Status.OK, new Metadata());
        }
      };
    }, null);
    call.onMessage(payload("a"), false);
    call.onHalfClose();
    assertEquals(List.of(true, true, true), inContext);
    assertThrows(IllegalStateException.class, ServerContext::current, "the context left with the task");
  }

  @Test
  void aUnaryCallWithoutARequestStartsAndHalfCloses() {
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ZERO);
    call.start(echo(), null);
    call.onHalfClose();
    assertEquals(List.of("start", "halfClose"), events);
  }

  @Test
  void aUnaryCallCancelledBeforeItsHalfCloseStartsIsToldAndFreesItsRequest() {
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ofSeconds(3));
    call.start(echo(), null);
    ByteBuf request = payload("never read");
    call.onMessage(request, false);
    call.onCancel(Status.CANCELLED.withDescription("client reset"));
    assertEquals(List.of("start", "cancel"), events, "in order, the request dropped unread");
    assertEquals(0, request.refCnt());
    clock.advance(Duration.ofMinutes(1));
    assertEquals(List.of("request 2"), stream.operations, "no deadline left to fire");
  }

  @Test
  void aSecondRequestOnAUnaryCallFollowsTheFirstInOrder() {
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ZERO);
    call.start(echo(), null);
    call.onMessage(payload("a"), false);
    call.onMessage(payload("b"), false);
    assertTrue(events.isEmpty(), "still waiting for the half-close");
    call.onHalfClose();
    assertEquals(List.of("start", "message a", "message b", "halfClose"), events);
  }

  @Test
  void aStreamingResponseGoesOutAsItIsSent() {
    ServerCallImpl<StringValue, StringValue> call = call(SERVER_STREAMING, Duration.ZERO);
    call.start(echo(), null);
    call.onMessage(payload("x"), false);
    call.onHalfClose();
    assertEquals(List.of("request 2", "headers flush", "message 9 flush", "close OK"), stream.operations);
  }

  @Test
  void theDeadlineCancelsTheCallWhenTheClockReachesItAndTheServiceSeesTheTimeLeft() {
    List<Long> remaining = new ArrayList<>();
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ofSeconds(3));
    call.start((c, headers) -> {
      remaining.add(ServerContext.current().remainingNanos());
      return new ServerCall.Listener<>() {};
    }, null);
    clock.advance(Duration.ofSeconds(1));
    call.onMessage(payload("late"), false);
    call.onHalfClose();
    assertEquals(List.of(Duration.ofSeconds(2).toNanos()), remaining);
    clock.advance(Duration.ofMillis(1999));
    assertEquals("request 2", stream.lastOperation());
    clock.advance(Duration.ofMillis(1));
    assertEquals("cancel DEADLINE_EXCEEDED Deadline of 3000 ms exceeded on the server", stream.lastOperation());
  }

  @Test
  void aCallThatCompletesLeavesNoDeadlineBehind() {
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ofSeconds(3));
    call.start(echo(), null);
    call.onMessage(payload("a"), false);
    call.onHalfClose();
    call.onComplete();
    clock.advance(Duration.ofMinutes(1));
    assertEquals("close OK", stream.lastOperation());
  }

  @Test
  void aCancelledCallTellsTheServiceAndDropsWhatItSendsAfter() {
    List<ServerCall<StringValue, StringValue>> calls = new ArrayList<>();
    ServerCallImpl<StringValue, StringValue> call = call(SERVER_STREAMING, Duration.ofSeconds(3));
    call.start((c, headers) -> {
      calls.add(c);
      return new ServerCall.Listener<>() {
        @Override
        public void onCancel() {
          events.add("cancel");
        }
      };
    }, null);
    call.onMessage(payload("a"), false);
    call.onHalfClose();
    call.onCancel(Status.CANCELLED.withDescription("client reset"));
    assertEquals(List.of("cancel"), events);
    assertTrue(calls.get(0).isCancelled());
    calls.get(0).sendMessage(StringValue.of("too late"));
    clock.advance(Duration.ofMinutes(1));
    assertEquals(List.of("request 2"), stream.operations, "nothing sent, no deadline left to fire");
  }

  @Test
  void aServiceThatThrowsEndsTheCallWithItsStatus() {
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ZERO);
    call.start((c, headers) -> new ServerCall.Listener<>() {
      @Override
      public void onMessage(StringValue message) {
        throw new StatusException(Status.NOT_FOUND.withDescription("no " + message.getValue()));
      }
    }, null);
    call.onMessage(payload("user"), false);
    call.onHalfClose();
    assertEquals("close NOT_FOUND no user", stream.lastOperation());

    RecordingStream other = new RecordingStream();
    ServerCallImpl<StringValue, StringValue> failing = new ServerCallImpl<>(other, UNARY,
        new InboundRequest(UNARY.path(), new Metadata(), 0, null, null), Runnable::run, 4 << 20);
    failing.start((c, headers) -> {
      throw new IllegalStateException("bug");
    }, null);
    failing.onMessage(payload("x"), false);
    failing.onHalfClose();
    assertEquals("close UNKNOWN bug", other.lastOperation());
  }

  @Test
  void aRequestThatCannotBeReadEndsTheCallBeforeTheServiceSeesIt() {
    ServerCallImpl<StringValue, StringValue> call = call(UNARY, Duration.ZERO);
    call.start(echo(), null);
    call.onMessage(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, 0x01}), false);
    call.onHalfClose();
    assertEquals(List.of("start"), events, "the handler started, but saw no message and no half-close");
    assertTrue(stream.lastOperation().startsWith("close INTERNAL"), stream.operations.toString());
  }

  @Test
  void headersGoOnceAndNothingGoesAfterTheClose() {
    ServerCallImpl<StringValue, StringValue> call = call(SERVER_STREAMING, Duration.ZERO);
    call.sendHeaders(new Metadata());
    assertThrows(IllegalStateException.class, () -> call.sendHeaders(new Metadata()));
    call.close(Status.OK, new Metadata());
    call.close(Status.INTERNAL, new Metadata());
    assertThrows(IllegalStateException.class, () -> call.sendMessage(StringValue.of("after")));
    assertEquals(List.of("headers flush", "close OK"), stream.operations);
  }

  @Test
  void aLargeMessageIsAdmittedBeforeItIsMadeAndNotMadeWithoutRoom() {
    StringValue large = StringValue.of("x".repeat(ServerStream.ADMIT_FROM));
    int framed = large.getSerializedSize() + 5;
    ServerCallImpl<StringValue, StringValue> call = call(SERVER_STREAMING, Duration.ZERO);
    call.sendMessage(StringValue.of("small"));
    call.sendMessage(large);
    assertEquals(List.of("headers flush", "message 12 flush", "admit " + framed, "message " + framed + " flush"),
        stream.operations, "a small message is not asked about");

    stream.operations.clear();
    stream.room = false;
    call.sendMessage(large);
    assertEquals(List.of("admit " + framed), stream.operations, "no room: not made, the stream ended the call");

    stream.operations.clear();
    stream.room = true;
    call.setMessageCompression(true);
    call.sendMessage(large);
    assertEquals(List.of("admit " + framed, "message " + framed + " flush"), stream.operations,
        "no response encoding was chosen, so the message is not compressed and its size is known");
  }

  @Test
  void roomAdmittedForAMessageThatFailsToBeMadeIsGivenBack() {
    MessageCodec<StringValue> failing = new MessageCodec<>() {
      @Override
      public void write(StringValue message, OutputStream out) throws IOException {
        throw new IOException("cannot");
      }

      @Override
      public int serializedSize(StringValue message) {
        return ServerStream.ADMIT_FROM;
      }

      @Override
      public StringValue read(InputStream in) {
        throw new UnsupportedOperationException();
      }

      @Override
      public String subtype() {
        return "proto";
      }
    };
    MethodDescriptor<StringValue, StringValue> method =
        MethodDescriptor.of("test.Echo", "Failing", MethodType.UNARY, CODEC, failing, false);
    ServerCallImpl<StringValue, StringValue> call = call(method, Duration.ZERO);
    assertThrows(RuntimeException.class, () -> call.sendMessage(StringValue.of("anything")));
    int framed = ServerStream.ADMIT_FROM + 5;
    assertEquals(List.of("headers held", "admit " + framed, "withdraw " + framed), stream.operations);
  }

  /** A stream that records what the call asks of it. */
  private final class RecordingStream implements ServerStream {

    final List<String> operations = new ArrayList<>();
    boolean room = true;

    @Override
    public boolean admit(int framedSize) {
      operations.add("admit " + framedSize);
      return room;
    }

    @Override
    public void withdraw(int framedSize) {
      operations.add("withdraw " + framedSize);
    }

    String lastOperation() {
      return operations.get(operations.size() - 1);
    }

    @Override
    public void request(int count) {
      operations.add("request " + count);
    }

    @Override
    public void writeHeaders(Metadata headers, MessageEncoding responseEncoding, boolean flush) {
      operations.add("headers " + (flush ? "flush" : "held"));
    }

    @Override
    public void writeMessage(ByteBuf framed, boolean flush) {
      operations.add("message " + framed.readableBytes() + (flush ? " flush" : " held"));
      framed.release();
    }

    @Override
    public void close(Status status, Metadata trailers) {
      operations.add("close " + status.code() + (status.description() == null ? "" : " " + status.description()));
    }

    @Override
    public void cancel(Status status) {
      operations.add("cancel " + status.code() + (status.description() == null ? "" : " " + status.description()));
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public PeerInfo peer() {
      return null;
    }

    @Override
    public ByteBufAllocator alloc() {
      return ByteBufAllocator.DEFAULT;
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return clock.scheduler();
    }

    @Override
    public long nanoTime() {
      return clock.nanoTime();
    }
  }
}
