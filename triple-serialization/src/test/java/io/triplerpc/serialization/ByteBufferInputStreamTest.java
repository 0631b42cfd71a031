package io.triplerpc.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ByteBufferInputStreamTest {

  @Test
  void singleBytesAreUnsignedAndTheEndIsMinusOne() {
    ByteBufferInputStream in = new ByteBufferInputStream(ByteBuffer.wrap(new byte[] {(byte) 0xff, 0}));
    assertEquals(2, in.available());
    assertEquals(255, in.read());
    assertEquals(0, in.read());
    assertEquals(-1, in.read());
    assertEquals(0, in.available());
  }

  @Test
  void bulkReadsTakeWhatIsLeftThenReportTheEnd() {
    ByteBuffer buffer = ByteBuffer.allocateDirect(5).put(new byte[] {1, 2, 3, 4, 5}).flip();
    buffer.position(1);
    ByteBufferInputStream in = new ByteBufferInputStream(buffer);
    byte[] target = new byte[10];
    assertEquals(4, in.read(target, 2, 8));
    assertArrayEquals(new byte[] {0, 0, 2, 3, 4, 5, 0, 0, 0, 0}, target);
    assertEquals(-1, in.read(target, 0, 10));
  }

  @Test
  void aZeroLengthReadReturnsZeroEvenAtTheEnd() {
    ByteBufferInputStream in = new ByteBufferInputStream(ByteBuffer.allocate(0));
    assertEquals(0, in.read(new byte[4], 0, 0));
    assertEquals(-1, in.read(new byte[4], 0, 4));
  }

  @Test
  void readsStopAtTheLimit() throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(new byte[] {1, 2, 3, 4});
    buffer.limit(2);
    ByteBufferInputStream in = new ByteBufferInputStream(buffer);
    assertArrayEquals(new byte[] {1, 2}, in.readAllBytes());
  }

  @Test
  void severalBuffersReadAsOneRunSkippingEmptyOnes() throws IOException {
    ByteBufferInputStream in = new ByteBufferInputStream(
        ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.allocate(0), ByteBuffer.allocateDirect(1).put((byte) 3).flip(),
        ByteBuffer.wrap(new byte[] {4, 5, 6}));
    assertEquals(6, in.available());
    assertEquals(1, in.read());
    byte[] target = new byte[4];
    assertEquals(1, in.read(target, 0, 4), "a bulk read stops at the end of a buffer");
    assertEquals(2, target[0]);
    assertArrayEquals(new byte[] {3, 4, 5, 6}, in.readAllBytes());
    assertEquals(-1, in.read());
    assertEquals(0, in.available());
  }
}
