package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.BytesValue;
import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import java.io.OutputStream;
import org.junit.jupiter.api.Test;

class MessageCodecsTest {

  private static final MessageCodec<BytesValue> CODEC = Serializations.codecFor(BytesValue.class);

  @Test
  void garbageIsInternalWithAClearMessage() {
    ByteBuf garbage = Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
    StatusException e = assertThrows(StatusException.class,
        () -> MessageCodecs.decode(CODEC, garbage, false, null, 1024, "request"));
    assertEquals(Status.Code.INTERNAL, e.status().code());
    assertTrue(e.status().description().startsWith("Could not decode the request message"), e.status().description());
    garbage.release();
  }

  @Test
  void compressedWithoutAnEncodingIsInternal() {
    ByteBuf payload = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
    StatusException e = assertThrows(StatusException.class,
        () -> MessageCodecs.decode(CODEC, payload, true, null, 1024, "response"));
    assertEquals(Status.Code.INTERNAL, e.status().code());
    payload.release();
  }

  @Test
  void decompressionPastTheLimitIsResourceExhausted() throws Exception {
    // 1 MiB of zeros gzips to about 1 KiB: a small message that would blow up in memory.
    ByteBuf bomb = PooledByteBufAllocator.DEFAULT.buffer();
    byte[] zeros = BytesValue.of(ByteString.copyFrom(new byte[1 << 20])).toByteArray();
    try (OutputStream out = MessageEncoding.GZIP.compress(new ByteBufOutputStream(bomb))) {
      out.write(zeros);
    }
    assertTrue(bomb.readableBytes() < 4096);
    StatusException e = assertThrows(StatusException.class,
        () -> MessageCodecs.decode(CODEC, bomb, true, MessageEncoding.GZIP, 64 * 1024, "request"));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.status().code());
    bomb.release();
  }

  @Test
  void framedMessagesRoundTripPlainAndGzipped() {
    BytesValue value = BytesValue.of(ByteString.copyFromUtf8("round trip ".repeat(100)));
    for (MessageEncoding encoding : new MessageEncoding[] {null, MessageEncoding.GZIP}) {
      ByteBuf framed = MessageFramer.frame(PooledByteBufAllocator.DEFAULT, CODEC, value, encoding);
      try {
        int flags = framed.readUnsignedByte();
        int length = framed.readInt();
        assertEquals(encoding == null ? 0 : 1, flags);
        assertEquals(framed.readableBytes(), length);
        assertEquals(value, MessageCodecs.decode(CODEC, framed, flags == 1, encoding, 1 << 20, "test"));
      } finally {
        framed.release();
      }
    }
  }
}
