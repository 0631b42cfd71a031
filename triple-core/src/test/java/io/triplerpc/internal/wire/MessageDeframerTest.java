package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.triplerpc.Status;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MessageDeframerTest {

  private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
  private static final MessageCodec<StringValue> CODEC = Serializations.codecFor(StringValue.class);

  private final Recorder sink = new Recorder();
  private final MessageDeframer deframer = new MessageDeframer(sink, 1024, ALLOC);

  @AfterEach
  void releaseEverything() {
    deframer.close();
    sink.messages.forEach(ByteBuf::release);
  }

  private static ByteBuf framed(String text, MessageEncoding encoding) {
    return MessageFramer.frame(ALLOC, CODEC, StringValue.of(text), encoding);
  }

  /** Decodes and releases {@code payload}. */
  private static String decode(ByteBuf payload, boolean compressed) {
    try {
      return MessageCodecs.decode(CODEC, payload, compressed, compressed ? MessageEncoding.GZIP : null, 1 << 20, "test")
          .getValue();
    } finally {
      payload.release();
    }
  }

  @Test
  void deliversOnlyWhatWasRequested() {
    ByteBuf all = Unpooled.wrappedBuffer(framed("a", null), framed("b", null), framed("c", null));
    deframer.deframe(all, false);
    assertEquals(0, sink.messages.size());
    deframer.request(2);
    assertEquals(2, sink.messages.size());
    deframer.request(5);
    assertEquals(List.of("a", "b", "c"), sink.texts());
  }

  @Test
  void messagesSplitByteByByteAreReassembled() {
    deframer.request(10);
    ByteBuf whole = Unpooled.wrappedBuffer(framed("hello, world", null), framed("", null), framed("x".repeat(300), null));
    while (whole.isReadable()) {
      deframer.deframe(whole.readRetainedSlice(1), false);
    }
    whole.release();
    deframer.deframe(Unpooled.EMPTY_BUFFER, true);
    assertEquals(List.of("hello, world", "", "x".repeat(300)), sink.texts());
    assertTrue(sink.ended);
  }

  @Test
  void compressedMessagesKeepTheirFlag() {
    deframer.request(1);
    deframer.deframe(framed("squeeze me ".repeat(20), MessageEncoding.GZIP), false);
    assertTrue(sink.compressed.get(0));
    assertEquals("squeeze me ".repeat(20), decode(sink.messages.get(0).retain(), true));
  }

  @Test
  void bytesAreAcknowledgedOnlyForDeliveredOrAwaitedMessages() {
    ByteBuf first = framed("one", null);
    ByteBuf second = framed("two", null);
    int firstSize = first.readableBytes();
    int total = firstSize + second.readableBytes();
    deframer.deframe(Unpooled.wrappedBuffer(first, second), false);
    assertEquals(0, sink.acknowledged, "nobody asked yet");
    deframer.request(1);
    assertEquals(firstSize, sink.acknowledged);
    deframer.request(1);
    assertEquals(total, sink.acknowledged);
  }

  @Test
  void aMessageLargerThanTheWindowIsAcknowledgedAsItArrives() {
    deframer.request(1);
    ByteBuf big = framed("y".repeat(900), null);
    int size = big.readableBytes();
    deframer.deframe(big.readRetainedSlice(400), false);
    // The reader waits for this message, so its first bytes may be acknowledged before it is whole.
    assertEquals(400, sink.acknowledged);
    deframer.deframe(big, false);
    assertEquals(size, sink.acknowledged);
    assertEquals(1, sink.messages.size());
  }

  @Test
  void oversizedMessageIsResourceExhausted() {
    deframer.request(1);
    ByteBuf prefix = Unpooled.buffer().writeByte(0).writeInt(2048);
    deframer.deframe(prefix, false);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, sink.error.code());
    assertTrue(sink.error.description().contains("2048"));
  }

  @Test
  void reservedFlagsAreInternal() {
    deframer.request(1);
    deframer.deframe(Unpooled.buffer().writeByte(4).writeInt(0), false);
    assertEquals(Status.Code.INTERNAL, sink.error.code());
  }

  @Test
  void endOfStreamInsideAMessageIsInternal() {
    deframer.request(1);
    ByteBuf partial = Unpooled.buffer().writeByte(0).writeInt(100).writeBytes(new byte[10]);
    deframer.deframe(partial, true);
    assertEquals(Status.Code.INTERNAL, sink.error.code());
  }

  @Test
  void endOfStreamWaitsForUndeliveredMessages() {
    deframer.deframe(framed("last", null), true);
    assertEquals(false, sink.ended);
    deframer.request(1);
    assertEquals(List.of("last"), sink.texts());
    assertTrue(sink.ended);
  }

  @Test
  void closeReleasesWhatIsBuffered() {
    ByteBuf data = framed("never read", null);
    deframer.deframe(data, false);
    assertEquals(1, data.refCnt());
    deframer.close();
    assertEquals(0, data.refCnt());
    ByteBuf late = framed("late", null);
    deframer.deframe(late, false);
    assertEquals(0, late.refCnt());
  }

  private static final class Recorder implements MessageDeframer.Sink {
    final List<ByteBuf> messages = new ArrayList<>();
    final List<Boolean> compressed = new ArrayList<>();
    long acknowledged;
    boolean ended;
    Status error;

    @Override
    public void onMessage(ByteBuf payload, boolean isCompressed) {
      messages.add(payload);
      compressed.add(isCompressed);
    }

    @Override
    public void onBytesConsumed(int bytes) {
      acknowledged += bytes;
    }

    @Override
    public void onEndOfStream() {
      ended = true;
    }

    @Override
    public void onDeframeError(Status status) {
      error = status;
    }

    List<String> texts() {
      List<String> texts = new ArrayList<>();
      for (int i = 0; i < messages.size(); i++) {
        texts.add(decode(messages.get(i).retainedDuplicate(), compressed.get(i)));
      }
      return texts;
    }
  }
}
