package io.triplerpc.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeakDetectionExtensionTest {

  @Test
  void nettyBuffersUseTheRecordingDetector() {
    assertTrue(LeakDetectionExtension.installed(),
        "the extension must install its factory before AbstractByteBuf creates its detector");
  }

  @Test
  void aBufferNeverReleasedIsReportedWithWhereItWasMade() {
    leakOneBuffer();
    List<String> leaks = LeakDetectionExtension.collectLeaks();
    assertEquals(1, leaks.size(), leaks.toString());
    assertTrue(leaks.get(0).contains("leakOneBuffer"), "the report names where the buffer was made: " + leaks.get(0));
  }

  @Test
  void aBufferReleasedTooFewTimesIsReported() {
    retainWithoutRelease();
    List<String> leaks = LeakDetectionExtension.collectLeaks();
    assertEquals(1, leaks.size(), leaks.toString());
    assertTrue(leaks.get(0).contains("retainWithoutRelease"), leaks.get(0));
  }

  @Test
  void everyLeakIsReportedNotOnlyTheFirst() {
    leakOneBuffer();
    retainWithoutRelease();
    assertEquals(2, LeakDetectionExtension.collectLeaks().size());
  }

  @Test
  void releasedBuffersAreNotReported() {
    ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(64);
    pooled.writeLong(42);
    pooled.release();
    ByteBuf retained = PooledByteBufAllocator.DEFAULT.heapBuffer(16).writeInt(7);
    retained.retain();
    retained.release(2);
    assertEquals(List.of(), LeakDetectionExtension.collectLeaks());
  }

  @Test
  void theClassCheckFailsNamingTheClassAndTheLeak() {
    leakOneBuffer();
    AssertionError failure = assertThrows(AssertionError.class, () -> LeakDetectionExtension.failOnLeaks("SomeTest"));
    assertTrue(failure.getMessage().startsWith("1 Netty leak(s) reported during or before SomeTest"), failure.getMessage());
    assertTrue(failure.getMessage().contains("leakOneBuffer"), failure.getMessage());
    // The check forgets what it reported, so the next class starts clean.
    LeakDetectionExtension.failOnLeaks("NextTest");
  }

  private static void leakOneBuffer() {
    ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
    leaked.writeInt(7);
  }

  private static void retainWithoutRelease() {
    ByteBuf buffer = PooledByteBufAllocator.DEFAULT.heapBuffer(8).writeInt(1);
    buffer.retain();
    buffer.release();
  }
}
