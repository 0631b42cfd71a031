package io.triplerpc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap buffers, each recorded so that a test can check every one was released; every one after the first
 * is limited to {@code laterMaxCapacity}. Not thread-safe: for tests that allocate on one thread.
 */
public final class RecordingAllocator extends AbstractByteBufAllocator {
  public final List<ByteBuf> buffers = new ArrayList<>();
  private final int laterMaxCapacity;

  public RecordingAllocator(int laterMaxCapacity) {
    super(false);
    this.laterMaxCapacity = laterMaxCapacity;
  }

  @Override
  protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
    int max = buffers.isEmpty() ? maxCapacity : Math.min(maxCapacity, laterMaxCapacity);
    ByteBuf buffer = Unpooled.buffer(Math.min(initialCapacity, max), max);
    buffers.add(buffer);
    return buffer;
  }

  @Override
  protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
    throw new AssertionError("this allocator prefers heap buffers");
  }

  @Override
  public boolean isDirectBufferPooled() {
    return false;
  }

  public void assertAllReleased(String where) {
    for (int i = 0; i < buffers.size(); i++) {
      assertEquals(0, buffers.get(i).refCnt(), "buffer #" + i + " was not released, " + where);
    }
  }
}
