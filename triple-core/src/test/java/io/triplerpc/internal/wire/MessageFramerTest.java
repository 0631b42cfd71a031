package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.internal.RecordingAllocator;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class MessageFramerTest {

  private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
  private static final MessageCodec<StringValue> CODEC = Serializations.codecFor(StringValue.class);

  @Test
  void anUncompressedMessageIsFlagZeroThenItsLengthThenItsBytes() {
    StringValue value = StringValue.of("hello");
    ByteBuf framed = MessageFramer.frame(ALLOC, CODEC, value, null);
    try {
      assertEquals(0, framed.readUnsignedByte());
      assertEquals(value.getSerializedSize(), framed.readInt());
      assertArrayEquals(value.toByteArray(), ByteBufUtil.getBytes(framed));
    } finally {
      framed.release();
    }
  }

  @Test
  void theEmptyMessageIsJustThePrefix() {
    ByteBuf framed = MessageFramer.frame(ALLOC, CODEC, StringValue.getDefaultInstance(), null);
    try {
      assertArrayEquals(new byte[5], ByteBufUtil.getBytes(framed));
    } finally {
      framed.release();
    }
  }

  @Test
  void aCompressedMessageIsFlagOneThenTheLengthOfItsGzipBytes() throws IOException {
    StringValue value = StringValue.of("compress me ".repeat(100));
    ByteBuf framed = MessageFramer.frame(ALLOC, CODEC, value, MessageEncoding.GZIP);
    try {
      assertEquals(1, framed.readUnsignedByte());
      assertEquals(framed.readableBytes() - 4, framed.readInt());
      assertTrue(framed.readableBytes() < value.getSerializedSize() / 10, "it is compressed: " + framed.readableBytes());
      try (InputStream in = new GZIPInputStream(new ByteBufInputStream(framed))) {
        assertArrayEquals(value.toByteArray(), in.readAllBytes());
      }
    } finally {
      framed.release();
    }
  }

  @Test
  void aCodecThatCannotTellItsSizeIsWrittenThroughAStream() throws IOException {
    Utf8Codec codec = new Utf8Codec(false, false);
    ByteBuf plain = MessageFramer.frame(ALLOC, codec, "héllo", null);
    ByteBuf gzipped = MessageFramer.frame(ALLOC, codec, "héllo", MessageEncoding.GZIP);
    try {
      assertEquals(0, plain.readUnsignedByte());
      assertEquals(6, plain.readInt());
      assertEquals("héllo", plain.toString(StandardCharsets.UTF_8));
      assertEquals(1, gzipped.readUnsignedByte());
      assertEquals(gzipped.readableBytes() - 4, gzipped.readInt());
      try (InputStream in = new GZIPInputStream(new ByteBufInputStream(gzipped))) {
        assertEquals("héllo", new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } finally {
      plain.release();
      gzipped.release();
    }
  }

  @Test
  void aFailingCodecIsInternalAndLeavesNoBufferBehind() {
    for (boolean knowsSize : new boolean[] {true, false}) {
      for (MessageEncoding encoding : new MessageEncoding[] {null, MessageEncoding.GZIP}) {
        RecordingAllocator alloc = new RecordingAllocator(Integer.MAX_VALUE);
        StatusException e = assertThrows(StatusException.class,
            () -> MessageFramer.frame(alloc, new Utf8Codec(knowsSize, true), "doomed", encoding));
        String where = "knowsSize=" + knowsSize + ", encoding=" + encoding;
        assertEquals(Status.Code.INTERNAL, e.status().code(), where);
        assertTrue(e.status().description().startsWith("Failed to serialize java.lang.String"), where);
        assertSame(Utf8Codec.FAILURE, e.status().cause(), where);
        alloc.assertAllReleased(where);
      }
    }
  }

  @Test
  void aFailingCompressionIsInternalAndLeavesNoBufferBehind() {
    // Serializing succeeds into the first buffer; the second, for the compressed bytes, cannot grow.
    RecordingAllocator alloc = new RecordingAllocator(64);
    byte[] random = new byte[1000];
    new Random(42).nextBytes(random);
    BytesValue incompressible = BytesValue.of(ByteString.copyFrom(random));
    MessageCodec<BytesValue> codec = Serializations.codecFor(BytesValue.class);
    StatusException e = assertThrows(StatusException.class,
        () -> MessageFramer.frame(alloc, codec, incompressible, MessageEncoding.GZIP));
    assertEquals(Status.Code.INTERNAL, e.status().code());
    assertEquals(2, alloc.buffers.size(), "the payload and the framed buffer");
    alloc.assertAllReleased("after a failed compression");
  }

  @Test
  void aMessagePastTheLargestPooledBufferIsWrittenInPooledPieces() throws IOException {
    byte[] random = new byte[MessageCodecs.LARGEST_POOLED_BUFFER + MessageFramer.PIECE_SIZE / 2];
    new Random(7).nextBytes(random);
    BytesValue large = BytesValue.of(ByteString.copyFrom(random));
    MessageCodec<BytesValue> codec = Serializations.codecFor(BytesValue.class);
    ByteBuf framed = MessageFramer.frame(ALLOC, codec, large, null);
    try {
      CompositeByteBuf pieces = assertInstanceOf(CompositeByteBuf.class, framed);
      int total = 5 + large.getSerializedSize();
      assertEquals(total, framed.readableBytes());
      assertEquals((total + MessageFramer.PIECE_SIZE - 1) / MessageFramer.PIECE_SIZE, pieces.numComponents());
      for (int i = 0; i < pieces.numComponents(); i++) {
        assertTrue(pieces.internalComponent(i).capacity() <= MessageFramer.PIECE_SIZE, "piece " + i);
      }
      assertEquals(0, framed.readUnsignedByte());
      assertEquals(large.getSerializedSize(), framed.readInt());
      assertEquals(large, codec.read(new ByteBufInputStream(framed.duplicate())));
    } finally {
      framed.release();
    }
  }

  @Test
  void aLargeMessageWhoseCodecMisstatesItsSizeIsInternalAndLeavesNoBufferBehind() {
    String large = "x".repeat(MessageCodecs.LARGEST_POOLED_BUFFER);
    for (int misstatement : new int[] {1, -1}) {
      RecordingAllocator alloc = new RecordingAllocator(Integer.MAX_VALUE);
      MessageCodec<String> lying = new Utf8Codec(true, false) {
        @Override
        public int serializedSize(String value) {
          return super.serializedSize(value) + misstatement;
        }
      };
      StatusException e = assertThrows(StatusException.class, () -> MessageFramer.frame(alloc, lying, large, null));
      assertEquals(Status.Code.INTERNAL, e.status().code());
      assertTrue(alloc.buffers.size() > 1, "pieces, not one buffer");
      alloc.assertAllReleased("misstated by " + misstatement);
    }
  }

  /** UTF-8 strings, with or without a known size, optionally failing every write. */
  private static class Utf8Codec implements MessageCodec<String> {
    static final IOException FAILURE = new IOException("the codec failed on purpose");

    private final boolean knowsSize;
    private final boolean fails;

    Utf8Codec(boolean knowsSize, boolean fails) {
      this.knowsSize = knowsSize;
      this.fails = fails;
    }

    @Override
    public String subtype() {
      return "utf8";
    }

    @Override
    public int serializedSize(String value) {
      return knowsSize ? value.getBytes(StandardCharsets.UTF_8).length : -1;
    }

    @Override
    public void write(String value, OutputStream out) throws IOException {
      if (fails) {
        throw FAILURE;
      }
      out.write(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void write(String value, ByteBuffer target) throws IOException {
      if (fails) {
        throw FAILURE;
      }
      target.put(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String read(InputStream in) throws IOException {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
