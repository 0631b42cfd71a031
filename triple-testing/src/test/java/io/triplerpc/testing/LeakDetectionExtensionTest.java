package io.triplerpc.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeakDetectionExtensionTest {

  @Test
  void recordingDetectorIsTheOneNettyUses() {
    assertTrue(LeakDetectionExtension.installed());
  }

  @Test
  void aBufferNeverReleasedIsReported() {
    leakOneBuffer();
    List<String> leaks = LeakDetectionExtension.collectLeaks();
    assertEquals(1, leaks.size(), leaks.toString());
    assertTrue(leaks.get(0).contains("leakOneBuffer"), "the report names where the buffer was made: " + leaks.get(0));
  }

  @Test
  void releasedBuffersAreNotReported() {
    ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(64);
    buffer.writeLong(42);
    buffer.release();
    assertFalse(LeakDetectionExtension.collectLeaks().stream().anyMatch(l -> l.contains("releasedBuffersAreNotReported")));
  }

  private static void leakOneBuffer() {
    ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
    leaked.writeInt(7);
  }
}
