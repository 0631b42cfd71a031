package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DelayedClientStreamTest {

  /** A stream that records what it is asked to do. */
  private static final class RecordingStream implements ClientStream {
    final List<String> operations = new ArrayList<>();

    @Override
    public void start(ClientStreamListener listener, boolean headersNow) {
      operations.add("start");
    }

    @Override
    public void request(int count) {
      operations.add("request " + count);
    }

    @Override
    public void writeMessage(ByteBuf framed, boolean endOfStream) {
      operations.add("message " + framed.readableBytes() + (endOfStream ? " end" : ""));
      framed.release();
    }

    @Override
    public void halfClose() {
      operations.add("halfClose");
    }

    @Override
    public void cancel(Status status) {
      operations.add("cancel " + status.code());
    }

    @Override
    public boolean isReady() {
      return true;
    }
  }

  /** A listener that records how the stream closed. */
  private static final class ClosingListener implements ClientStreamListener {
    Status closed;

    @Override
    public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {}

    @Override
    public void onMessage(ByteBuf payload, boolean compressed) {
      payload.release();
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      closed = status;
    }

    @Override
    public void onReady() {}
  }

  @Test
  void whatIsDoneBeforeTheRealStreamIsReplayedOnItInOrderThenPassedThrough() {
    DelayedClientStream delayed = new DelayedClientStream();
    delayed.start(new ClosingListener(), false);
    delayed.request(1);
    delayed.writeMessage(Unpooled.buffer().writeZero(3), false);
    assertFalse(delayed.isReady());

    RecordingStream real = new RecordingStream();
    assertTrue(delayed.resolve(real));
    delayed.writeMessage(Unpooled.buffer().writeZero(2), true);
    delayed.halfClose();

    assertTrue(delayed.isReady());
    assertEquals(List.of("start", "request 1", "message 3", "message 2 end", "halfClose"), real.operations);
  }

  @Test
  void aCancelBeforeTheRealStreamClosesTheListenerAndReleasesWhatWasKept() {
    DelayedClientStream delayed = new DelayedClientStream();
    ClosingListener listener = new ClosingListener();
    delayed.start(listener, false);
    ByteBuf kept = Unpooled.buffer().writeZero(5);
    delayed.writeMessage(kept, true);

    delayed.cancel(Status.DEADLINE_EXCEEDED);

    assertEquals(Status.Code.DEADLINE_EXCEEDED, listener.closed.code());
    assertEquals(0, kept.refCnt());
    RecordingStream late = new RecordingStream();
    assertFalse(delayed.resolve(late));
    assertTrue(late.operations.isEmpty());
  }

  @Test
  void aFailureClosesTheListenerWithItsStatus() {
    DelayedClientStream delayed = new DelayedClientStream();
    ClosingListener listener = new ClosingListener();
    delayed.start(listener, false);
    delayed.fail(Status.UNAUTHENTICATED.withDescription("no token"));
    assertEquals("no token", listener.closed.description());
  }
}
