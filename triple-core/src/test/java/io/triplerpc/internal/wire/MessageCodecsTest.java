package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MessageCodecsTest {

  private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
  private static final MessageCodec<BytesValue> CODEC = Serializations.codecFor(BytesValue.class);
  private static final BytesValue VALUE = BytesValue.of(ByteString.copyFromUtf8("round trip ".repeat(100)));

  /** Payloads handed to decode, which must neither release nor retain them. */
  private final List<ByteBuf> payloads = new ArrayList<>();

  @AfterEach
  void decodeLeavesEveryPayloadToItsCaller() {
    for (ByteBuf payload : payloads) {
      assertEquals(1, payload.refCnt(), "decode changed the reference count of its payload");
      payload.release();
    }
  }

  @Test
  void heapAndDirectPayloadsDecode() {
    assertEquals(VALUE, decode(track(ALLOC.heapBuffer().writeBytes(VALUE.toByteArray())), false, null));
    assertEquals(VALUE, decode(track(ALLOC.directBuffer().writeBytes(VALUE.toByteArray())), false, null));
  }

  /** Past the largest pooled copy (1 MiB), a spread payload is read in place: the same value, whole. */
  @Test
  void aPayloadSpreadOverSeveralBuffersPastTheLargestPooledCopyDecodesInPlace() {
    byte[] body = new byte[MessageCodecs.LARGEST_POOLED_BUFFER + 4096];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) (i * 31);
    }
    BytesValue large = BytesValue.of(ByteString.copyFrom(body));
    byte[] bytes = large.toByteArray();
    List<ByteBuf> pieces = new ArrayList<>();
    for (int offset = 0; offset < bytes.length; offset += 16384) {
      int length = Math.min(16384, bytes.length - offset);
      pieces.add((offset / 16384) % 2 == 0 ? ALLOC.directBuffer(length).writeBytes(bytes, offset, length)
          : ALLOC.heapBuffer(length).writeBytes(bytes, offset, length));
    }
    ByteBuf spread = track(Unpooled.wrappedBuffer(pieces.toArray(new ByteBuf[0])));
    assertTrue(spread.readableBytes() > MessageCodecs.LARGEST_POOLED_BUFFER);
    assertEquals(large, decode(spread, false, null));
    assertEquals(0, spread.readerIndex(), "decode leaves the payload's reader index alone");
  }

  @Test
  void aPayloadSpreadOverSeveralBuffersDecodes() {
    byte[] bytes = VALUE.toByteArray();
    int half = bytes.length / 2;
    ByteBuf spread = track(Unpooled.wrappedBuffer(
        ALLOC.directBuffer().writeBytes(bytes, 0, half), ALLOC.heapBuffer().writeBytes(bytes, half, bytes.length - half)));
    assertTrue(spread.nioBufferCount() > 1);
    assertEquals(VALUE, decode(spread, false, null));
  }

  /**
   * The flat copy is taken piece by piece: a payload asked for one merged NIO buffer would be copied
   * twice, the first time into a fresh array per message.
   */
  @Test
  void aSpreadPayloadIsCopiedOnceWithoutMergingItsPieces() {
    byte[] bytes = VALUE.toByteArray();
    int third = bytes.length / 3;
    ByteBufAllocator adaptive = new AdaptiveByteBufAllocator();
    CompositeByteBuf spread = track(new CompositeByteBuf(adaptive, true, 3) {
      @Override
      public ByteBuffer nioBuffer(int index, int length) {
        throw new AssertionError("merged the payload's pieces into one buffer");
      }
    });
    spread.addComponents(true,
        adaptive.directBuffer().writeBytes(bytes, 0, third),
        adaptive.directBuffer().writeBytes(bytes, third, third),
        adaptive.directBuffer().writeBytes(bytes, 2 * third, bytes.length - 2 * third));
    assertEquals(VALUE, decode(spread, false, null));
  }

  @Test
  void aZeroLengthPayloadIsTheDefaultMessage() {
    assertEquals(BytesValue.getDefaultInstance(), decode(Unpooled.EMPTY_BUFFER, false, null));
  }

  @Test
  void decodedBytesDoNotShareMemoryWithThePayload() {
    ByteBuf payload = track(ALLOC.directBuffer().writeBytes(VALUE.toByteArray()));
    BytesValue decoded = decode(payload, false, null);
    payload.setZero(0, payload.capacity());
    assertEquals(VALUE, decoded, "the decoded message must outlive its pooled buffer");
  }

  @Test
  void garbageIsInternalNamingTheMessageAndItsType() {
    ByteBuf garbage = track(ALLOC.buffer().writeBytes(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}));
    StatusException e = assertThrows(StatusException.class, () -> decode(garbage, false, null));
    assertEquals(Status.Code.INTERNAL, e.status().code());
    String description = e.status().description();
    assertTrue(description.startsWith("Could not decode the request message"), description);
    assertTrue(description.contains(BytesValue.class.getName()), description);
    assertInstanceOf(InvalidProtocolBufferException.class, e.status().cause());
  }

  @Test
  void aTruncatedMessageIsInternal() {
    byte[] bytes = VALUE.toByteArray();
    ByteBuf truncated = track(ALLOC.buffer().writeBytes(bytes, 0, bytes.length - 3));
    StatusException e = assertThrows(StatusException.class,
        () -> MessageCodecs.decode(CODEC, truncated, false, null, 1 << 20, "response"));
    assertEquals(Status.Code.INTERNAL, e.status().code());
    assertTrue(e.status().description().startsWith("Could not decode the response message"), e.status().description());
  }

  @Test
  void compressedWithoutAnEncodingIsInternal() {
    ByteBuf payload = track(gzip(VALUE.toByteArray()));
    StatusException e = assertThrows(StatusException.class,
        () -> MessageCodecs.decode(CODEC, payload, true, null, 1 << 20, "response"));
    assertEquals(Status.Code.INTERNAL, e.status().code());
    assertTrue(e.status().description().contains("Compressed response message"), e.status().description());
    assertTrue(e.status().description().contains("grpc-encoding"), e.status().description());
  }

  @Test
  void compressedBytesThatAreNotGzipAreInternal() {
    ByteBuf payload = track(ALLOC.buffer().writeBytes(VALUE.toByteArray()));
    StatusException e = assertThrows(StatusException.class, () -> decode(payload, true, MessageEncoding.GZIP));
    assertEquals(Status.Code.INTERNAL, e.status().code());
    assertTrue(e.status().description().startsWith("Could not decode the request message"), e.status().description());
  }

  @Test
  void gzipMessagesDecode() {
    assertEquals(VALUE, decode(track(gzip(VALUE.toByteArray())), true, MessageEncoding.GZIP));
  }

  @Test
  void aGzipBombIsResourceExhausted() {
    // 1 MiB of zeros gzips to about 1 KiB: a small message that would blow up in memory.
    byte[] huge = BytesValue.of(ByteString.copyFrom(new byte[1 << 20])).toByteArray();
    ByteBuf bomb = track(gzip(huge));
    assertTrue(bomb.readableBytes() < 4096, "a bomb is small: " + bomb.readableBytes());
    StatusException e = assertThrows(StatusException.class,
        () -> MessageCodecs.decode(CODEC, bomb, true, MessageEncoding.GZIP, 64 * 1024, "request"));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.status().code());
    assertTrue(e.status().description().contains("exceeds maximum size 65536"), e.status().description());
  }

  @Test
  void decompressingToExactlyTheLimitSucceedsAndOneByteMoreDoesNot() {
    byte[] bytes = VALUE.toByteArray();
    ByteBuf payload = track(gzip(bytes));
    assertEquals(VALUE, MessageCodecs.decode(CODEC, payload.duplicate(), true, MessageEncoding.GZIP, bytes.length, "request"));
    StatusException e = assertThrows(StatusException.class,
        () -> MessageCodecs.decode(CODEC, payload.duplicate(), true, MessageEncoding.GZIP, bytes.length - 1, "request"));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.status().code());
  }

  @Test
  void framedMessagesRoundTripPlainAndGzipped() {
    for (MessageEncoding encoding : new MessageEncoding[] {null, MessageEncoding.GZIP}) {
      ByteBuf framed = MessageFramer.frame(ALLOC, CODEC, VALUE, encoding);
      try {
        int flags = framed.readUnsignedByte();
        int length = framed.readInt();
        assertEquals(encoding == null ? 0 : 1, flags);
        assertEquals(framed.readableBytes(), length);
        assertEquals(VALUE, MessageCodecs.decode(CODEC, framed, flags == 1, encoding, 1 << 20, "test"));
      } finally {
        framed.release();
      }
    }
  }

  @Test
  void decodedBytesAreExactlyTheOnesSent() {
    byte[] all = new byte[256];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    BytesValue value = BytesValue.of(ByteString.copyFrom(all));
    BytesValue decoded = decode(track(ALLOC.buffer().writeBytes(value.toByteArray())), false, null);
    assertArrayEquals(all, decoded.getValue().toByteArray());
  }

  private <B extends ByteBuf> B track(B payload) {
    payloads.add(payload);
    return payload;
  }

  private static BytesValue decode(ByteBuf payload, boolean compressed, MessageEncoding encoding) {
    return MessageCodecs.decode(CODEC, payload, compressed, encoding, 1 << 20, "request");
  }

  private static ByteBuf gzip(byte[] bytes) {
    ByteBuf out = ALLOC.buffer();
    try (OutputStream gzip = MessageEncoding.GZIP.compress(new ByteBufOutputStream(out))) {
      gzip.write(bytes);
    } catch (IOException e) {
      out.release();
      throw new AssertionError(e);
    }
    return out;
  }
}
