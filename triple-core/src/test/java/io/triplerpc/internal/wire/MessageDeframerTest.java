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
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MessageDeframerTest {

  private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
  private static final MessageCodec<StringValue> CODEC = Serializations.codecFor(StringValue.class);
  private static final int MAX_SIZE = 1024;

  /** Every buffer a test made; each must be fully released when the test is done. */
  private final List<ByteBuf> buffers = new ArrayList<>();
  private final Recorder sink = new Recorder();
  private final MessageDeframer deframer = new MessageDeframer(sink, MAX_SIZE, ALLOC);

  @AfterEach
  void everyBufferIsReleased() {
    deframer.close();
    sink.releaseMessages();
    for (int i = 0; i < buffers.size(); i++) {
      assertEquals(0, buffers.get(i).refCnt(), "buffer #" + i + " of the test is still referenced");
    }
  }

  @Test
  void deliversNothingUntilAsked() {
    deframer.deframe(joined(framed("a"), framed("b")), false);
    assertEquals(List.of(), sink.texts());
  }

  @Test
  void deliversOnlyWhatWasRequested() {
    deframer.deframe(joined(framed("a"), framed("b"), framed("c")), true);
    deframer.request(2);
    assertEquals(List.of("a", "b"), sink.texts());
    assertEquals(0, sink.ended, "a message is still unread");
    deframer.request(5);
    assertEquals(List.of("a", "b", "c"), sink.texts());
    assertEquals(1, sink.ended);
  }

  @Test
  void aRequestMadeBeforeDataArrivesIsServedWhenItArrives() {
    deframer.request(1);
    deframer.deframe(framed("early"), false);
    assertEquals(List.of("early"), sink.texts());
  }

  @Test
  void requestsOfZeroOrLessAskForNothing() {
    deframer.deframe(framed("x"), false);
    deframer.request(0);
    deframer.request(-3);
    assertEquals(0, sink.messages.size());
    deframer.request(1);
    assertEquals(List.of("x"), sink.texts());
  }

  @Test
  void severalMessagesInOneBufferAreDeliveredWithoutTheirPrefixes() {
    deframer.request(10);
    deframer.deframe(joined(framed("one"), framed(""), framed("three")), false);
    assertEquals(List.of("one", "", "three"), sink.texts());
    // A StringValue is a tag byte, a length byte, then the characters.
    assertEquals(List.of(5, 0, 7), sink.payloadSizes());
  }

  @Test
  void messagesSplitByteByByteAreReassembled() {
    deframer.request(10);
    feedByteByByte(joined(framed("hello, world"), framed(""), framed("x".repeat(300))));
    deframer.deframe(Unpooled.EMPTY_BUFFER, true);
    assertEquals(List.of("hello, world", "", "x".repeat(300)), sink.texts());
    assertEquals(1, sink.ended);
  }

  @Test
  void gzipMessagesSplitByteByByteAreReassembled() {
    deframer.request(10);
    feedByteByByte(joined(gzipped("squeeze me ".repeat(30)), framed("plain"), gzipped("")));
    assertEquals(List.of("squeeze me ".repeat(30), "plain", ""), sink.texts());
    assertEquals(List.of(true, false, true), sink.compressed);
  }

  @Test
  void aMessageSplitAtAnyPointIsDeliveredOnlyOnceWhole() {
    ByteBuf frame = framed("split me anywhere");
    int length = frame.readableBytes();
    for (int at = 1; at < length; at++) {
      Recorder recorder = new Recorder();
      MessageDeframer split = new MessageDeframer(recorder, MAX_SIZE, ALLOC);
      split.request(1);
      split.deframe(frame.retainedSlice(0, at), false);
      assertEquals(0, recorder.messages.size(), "delivered before it was whole, split at " + at);
      split.deframe(frame.retainedSlice(at, length - at), true);
      assertEquals(List.of("split me anywhere"), recorder.texts(), "split at " + at);
      assertEquals(1, recorder.ended, "split at " + at);
      recorder.releaseMessages();
    }
    frame.release();
  }

  @Test
  void gzipMessagesArriveWithTheirCompressedFlag() {
    deframer.request(2);
    deframer.deframe(joined(gzipped("squeeze me ".repeat(20)), framed("plain")), false);
    assertEquals(List.of(true, false), sink.compressed);
    assertEquals(List.of("squeeze me ".repeat(20), "plain"), sink.texts());
  }

  @Test
  void zeroLengthMessagesAreDeliveredAsEmptyPayloads() {
    deframer.request(3);
    deframer.deframe(joined(prefix(0, 0), prefix(0, 0), prefix(1, 0)), true);
    assertEquals(List.of(0, 0, 0), sink.payloadSizes());
    assertEquals(List.of(false, false, true), sink.compressed);
    assertEquals(1, sink.ended);
  }

  @Test
  void aMessageOfExactlyTheMaximumSizeIsDelivered() {
    deframer.request(1);
    deframer.deframe(joined(prefix(0, MAX_SIZE), zeros(MAX_SIZE)), false);
    assertEquals(List.of(MAX_SIZE), sink.payloadSizes());
    assertEquals(List.of(), sink.errors);
  }

  @Test
  void aMessageOverTheMaximumSizeIsResourceExhaustedAndNothingIsKept() {
    deframer.request(1);
    ByteBuf data = joined(prefix(0, MAX_SIZE + 1), zeros(MAX_SIZE + 1));
    deframer.deframe(data, false);
    Status error = sink.onlyError();
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, error.code());
    assertTrue(error.description().contains(MAX_SIZE + ": " + (MAX_SIZE + 1)), error.description());
    assertEquals(0, data.refCnt());
    assertTrue(deframer.isClosed());
  }

  @Test
  void aLengthPastTwoGigabytesIsResourceExhaustedNotNegative() {
    deframer.request(1);
    deframer.deframe(track(ALLOC.buffer().writeByte(0).writeInt(0xFFFFFFFF)), false);
    Status error = sink.onlyError();
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, error.code());
    assertTrue(error.description().contains("4294967295"), error.description());
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4, 8, 16, 32, 64, 128, 255})
  void reservedFlagBitsAreInternalAndNothingIsKept(int flags) {
    deframer.request(1);
    ByteBuf data = joined(prefix(flags, 2), zeros(2));
    deframer.deframe(data, false);
    Status error = sink.onlyError();
    assertEquals(Status.Code.INTERNAL, error.code());
    assertTrue(error.description().contains("reserved flag bits set: " + flags), error.description());
    assertEquals(0, data.refCnt());
    assertEquals(0, sink.messages.size());
  }

  @Test
  void endOfStreamInsideThePrefixIsInternal() {
    deframer.request(1);
    ByteBuf partial = track(ALLOC.buffer().writeByte(0).writeShort(0));
    deframer.deframe(partial, true);
    Status error = sink.onlyError();
    assertEquals(Status.Code.INTERNAL, error.code());
    assertTrue(error.description().contains("middle of a gRPC message"), error.description());
    assertEquals(0, partial.refCnt());
    assertEquals(0, sink.ended);
  }

  @Test
  void endOfStreamInsideThePayloadIsInternalEvenBeforeAnyRequest() {
    ByteBuf partial = joined(prefix(0, 100), zeros(10));
    deframer.deframe(partial, true);
    Status error = sink.onlyError();
    assertEquals(Status.Code.INTERNAL, error.code());
    assertTrue(error.description().contains("15 bytes buffered"), error.description());
    assertEquals(0, partial.refCnt());
    assertEquals(0, sink.ended);
  }

  @Test
  void endOfStreamInsideTheSecondMessageFailsOnceTheFirstIsRead() {
    deframer.deframe(joined(framed("whole"), prefix(0, 50)), true);
    assertEquals(List.of(), sink.errors, "a whole message is still there to read");
    deframer.request(2);
    assertEquals(List.of("whole"), sink.texts());
    assertEquals(Status.Code.INTERNAL, sink.onlyError().code());
    assertEquals(0, sink.ended);
  }

  @Test
  void endOfStreamWaitsUntilEveryMessageIsRead() {
    deframer.deframe(framed("last"), true);
    assertEquals(0, sink.ended);
    deframer.request(1);
    assertEquals(List.of("last"), sink.texts());
    assertEquals(1, sink.ended);
  }

  @Test
  void anEmptyStreamEndsWithoutARequest() {
    deframer.deframe(Unpooled.EMPTY_BUFFER, true);
    assertEquals(1, sink.ended);
    assertTrue(deframer.isClosed());
  }

  @Test
  void endOfStreamIsReportedOnceAndLaterDataIsReleased() {
    deframer.deframe(Unpooled.EMPTY_BUFFER, true);
    ByteBuf late = framed("late");
    deframer.deframe(late, true);
    deframer.request(1);
    assertEquals(1, sink.ended);
    assertEquals(0, sink.messages.size());
    assertEquals(0, late.refCnt());
  }

  @Test
  void closeReleasesBufferedDataAndEverythingAfterIt() {
    ByteBuf first = framed("never read");
    ByteBuf second = framed("nor this");
    deframer.deframe(first, false);
    deframer.deframe(second, false);
    assertEquals(1, first.refCnt());
    deframer.close();
    assertTrue(deframer.isClosed());
    assertEquals(0, first.refCnt());
    assertEquals(0, second.refCnt());
    ByteBuf late = framed("late");
    deframer.deframe(late, true);
    assertEquals(0, late.refCnt());
    deframer.request(1);
    assertEquals(0, sink.messages.size());
    assertEquals(0, sink.ended);
  }

  @Test
  void closeReleasesAMessageWhosePrefixWasAlreadyRead() {
    deframer.request(1);
    ByteBuf frame = framed("half of me");
    deframer.deframe(frame.readRetainedSlice(7), false);
    deframer.close();
    frame.release();
  }

  @Test
  void nothingIsDeliveredAfterAnError() {
    deframer.request(5);
    deframer.deframe(joined(framed("ok"), prefix(4, 0), framed("after")), false);
    assertEquals(List.of("ok"), sink.texts());
    assertEquals(Status.Code.INTERNAL, sink.onlyError().code());
    deframer.deframe(framed("later"), true);
    deframer.request(1);
    assertEquals(1, sink.messages.size());
    assertEquals(1, sink.errors.size(), "one error only");
    assertEquals(0, sink.ended);
  }

  @Test
  void theReaderMayAskForMoreFromInsideOnMessage() {
    sink.onEach = payload -> deframer.request(1);
    deframer.deframe(joined(framed("a"), framed("b"), framed("c")), true);
    deframer.request(1);
    assertEquals(List.of("a", "b", "c"), sink.texts());
    assertEquals(1, sink.ended);
  }

  @Test
  void theReaderMayCloseFromInsideOnMessage() {
    sink.onEach = payload -> deframer.close();
    deframer.deframe(joined(framed("a"), framed("b")), true);
    deframer.request(2);
    assertEquals(List.of("a"), sink.texts());
    assertEquals(0, sink.ended);
  }

  @Test
  void bytesNobodyAskedForAreNotAcknowledged() {
    ByteBuf first = framed("one");
    ByteBuf second = framed("two");
    int firstSize = first.readableBytes();
    int total = firstSize + second.readableBytes();
    deframer.deframe(first, false);
    deframer.deframe(second, false);
    assertEquals(0, sink.acknowledged, "nobody asked yet");
    deframer.request(1);
    assertEquals(firstSize, sink.acknowledged);
    deframer.request(1);
    assertEquals(total, sink.acknowledged);
  }

  @Test
  void aMessageLargerThanTheWindowIsAcknowledgedAsItArrives() {
    deframer.request(1);
    ByteBuf big = framed("y".repeat(900));
    int size = big.readableBytes();
    deframer.deframe(big.readRetainedSlice(400), false);
    // The reader waits for this message, so its first bytes are acknowledged before it is whole.
    assertEquals(400, sink.acknowledged);
    deframer.deframe(big, false);
    assertEquals(size, sink.acknowledged);
    assertEquals(1, sink.messages.size());
  }

  /** A gRPC-Web trailer frame: flag 0x80 (and 0x01 if compressed), then the block. */
  private ByteBuf trailerFrame(String block) {
    byte[] bytes = block.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    return track(ALLOC.buffer(5 + bytes.length).writeByte(0x80).writeInt(bytes.length).writeBytes(bytes));
  }

  /** A deframer of gRPC-Web's responses, its end frames recorded as text. */
  private MessageDeframer grpcWeb(List<String> endFrames) {
    return new MessageDeframer(new Recorder() {
      @Override
      public void onMessage(ByteBuf payload, boolean isCompressed) {
        sink.onMessage(payload, isCompressed);
      }

      @Override
      public void onEndFrame(ByteBuf payload, boolean isCompressed) {
        endFrames.add(payload.toString(java.nio.charset.StandardCharsets.US_ASCII) + (isCompressed ? " (compressed)" : ""));
        payload.release();
      }
    }, MAX_SIZE, ALLOC, 0x80);
  }

  @Test
  void anEndFrameComesAfterTheMessagesBeforeItEvenWithoutDemand() {
    List<String> ends = new ArrayList<>();
    MessageDeframer web = grpcWeb(ends);
    web.deframe(joined(framed("a"), framed("b"), trailerFrame("grpc-status: 0\r\n")), false);
    web.request(1);
    assertEquals(List.of("a"), sink.texts());
    assertEquals(List.of(), ends, "a message still comes first");
    web.request(1);
    assertEquals(List.of("a", "b"), sink.texts());
    assertEquals(List.of("grpc-status: 0\r\n"), ends, "no demand is needed for the end");
    web.deframe(framed("after the end"), true);
    assertEquals(List.of("a", "b"), sink.texts(), "nothing after the end is read");
  }

  @Test
  void anEndFrameSplitAcrossDataFramesWaitsForItsLastByte() {
    List<String> ends = new ArrayList<>();
    MessageDeframer web = grpcWeb(ends);
    ByteBuf frame = trailerFrame("grpc-status: 5\r\ngrpc-message: gone\r\n");
    web.deframe(frame.readRetainedSlice(7), false);
    assertEquals(List.of(), ends);
    web.deframe(frame.readRetainedSlice(frame.readableBytes()), false);
    frame.release();
    assertEquals(List.of("grpc-status: 5\r\ngrpc-message: gone\r\n"), ends);
  }

  @Test
  void withoutEndFramesTheFlagIsAReservedBit() {
    deframer.request(1);
    deframer.deframe(trailerFrame("grpc-status: 0\r\n"), false);
    assertTrue(sink.onlyError().description().contains("reserved flag bits"), sink.errors.toString());
  }

  private ByteBuf track(ByteBuf buffer) {
    buffers.add(buffer);
    return buffer;
  }

  private ByteBuf framed(String text) {
    return track(MessageFramer.frame(ALLOC, CODEC, StringValue.of(text), null));
  }

  private ByteBuf gzipped(String text) {
    return track(MessageFramer.frame(ALLOC, CODEC, StringValue.of(text), MessageEncoding.GZIP));
  }

  private ByteBuf prefix(int flags, int length) {
    return track(ALLOC.buffer(5).writeByte(flags).writeInt(length));
  }

  private ByteBuf zeros(int length) {
    return track(ALLOC.buffer(length).writeZero(length));
  }

  /** One buffer holding all of {@code parts}, as one DATA frame would; the parts are released. */
  private ByteBuf joined(ByteBuf... parts) {
    ByteBuf all = track(ALLOC.buffer());
    for (ByteBuf part : parts) {
      all.writeBytes(part);
      part.release();
    }
    return all;
  }

  private void feedByteByByte(ByteBuf whole) {
    while (whole.isReadable()) {
      deframer.deframe(whole.readRetainedSlice(1), false);
    }
    whole.release();
  }

  /** Decodes and releases {@code payload}. */
  private static String decode(ByteBuf payload, boolean compressed) {
    try {
      MessageEncoding encoding = compressed ? MessageEncoding.GZIP : null;
      return MessageCodecs.decode(CODEC, payload, compressed, encoding, 1 << 20, "test").getValue();
    } finally {
      payload.release();
    }
  }

  private static class Recorder implements MessageDeframer.Sink {
    final List<ByteBuf> messages = new ArrayList<>();
    final List<Boolean> compressed = new ArrayList<>();
    final List<Status> errors = new ArrayList<>();
    long acknowledged;
    int ended;
    Consumer<ByteBuf> onEach = payload -> { };

    @Override
    public void onMessage(ByteBuf payload, boolean isCompressed) {
      messages.add(payload);
      compressed.add(isCompressed);
      onEach.accept(payload);
    }

    @Override
    public void onBytesConsumed(int bytes) {
      assertTrue(bytes > 0, "acknowledged " + bytes + " bytes");
      acknowledged += bytes;
    }

    @Override
    public void onEndOfStream() {
      ended++;
    }

    @Override
    public void onDeframeError(Status status) {
      errors.add(status);
    }

    Status onlyError() {
      assertEquals(1, errors.size(), errors.toString());
      return errors.get(0);
    }

    List<String> texts() {
      List<String> texts = new ArrayList<>();
      for (int i = 0; i < messages.size(); i++) {
        texts.add(decode(messages.get(i).retainedDuplicate(), compressed.get(i)));
      }
      return texts;
    }

    List<Integer> payloadSizes() {
      List<Integer> sizes = new ArrayList<>();
      messages.forEach(m -> sizes.add(m.readableBytes()));
      return sizes;
    }

    void releaseMessages() {
      messages.forEach(ByteBuf::release);
      messages.clear();
    }
  }
}
