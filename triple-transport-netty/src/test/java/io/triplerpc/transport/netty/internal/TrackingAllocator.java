package io.triplerpc.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * An allocator that remembers every buffer it handed out, so that a test can name the buffers still
 * held once a connection is gone, at once and for one input, where Netty's leak detector reports only
 * after a garbage collection, for whatever ran before it. Event loop only (an embedded channel's).
 */
public final class TrackingAllocator implements ByteBufAllocator {

  private final ByteBufAllocator delegate = new UnpooledByteBufAllocator(true, true);
  private final List<ByteBuf> handedOut = new ArrayList<>();
  private final List<Throwable> allocatedAt = new ArrayList<>();

  /** The buffers not released yet, each with where it was made. */
  public List<String> unreleased() {
    List<String> held = new ArrayList<>();
    for (int i = 0; i < handedOut.size(); i++) {
      ByteBuf buf = handedOut.get(i);
      if (buf.refCnt() > 0) {
        java.io.StringWriter trace = new java.io.StringWriter();
        allocatedAt.get(i).printStackTrace(new java.io.PrintWriter(trace));
        held.add(buf + " made at " + trace);
      }
    }
    return held;
  }

  /** Releases what is still held, so that a failed input leaves nothing for the next. */
  public void releaseAll() {
    for (ByteBuf buf : handedOut) {
      if (buf.refCnt() > 0) {
        buf.release(buf.refCnt());
      }
    }
    handedOut.clear();
    allocatedAt.clear();
  }

  private <T extends ByteBuf> T track(T buf) {
    handedOut.add(buf);
    allocatedAt.add(new Throwable("allocated"));
    return buf;
  }

  @Override
  public ByteBuf buffer() {
    return track(delegate.buffer());
  }

  @Override
  public ByteBuf buffer(int initialCapacity) {
    return track(delegate.buffer(initialCapacity));
  }

  @Override
  public ByteBuf buffer(int initialCapacity, int maxCapacity) {
    return track(delegate.buffer(initialCapacity, maxCapacity));
  }

  @Override
  public ByteBuf ioBuffer() {
    return track(delegate.ioBuffer());
  }

  @Override
  public ByteBuf ioBuffer(int initialCapacity) {
    return track(delegate.ioBuffer(initialCapacity));
  }

  @Override
  public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
    return track(delegate.ioBuffer(initialCapacity, maxCapacity));
  }

  @Override
  public ByteBuf heapBuffer() {
    return track(delegate.heapBuffer());
  }

  @Override
  public ByteBuf heapBuffer(int initialCapacity) {
    return track(delegate.heapBuffer(initialCapacity));
  }

  @Override
  public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) {
    return track(delegate.heapBuffer(initialCapacity, maxCapacity));
  }

  @Override
  public ByteBuf directBuffer() {
    return track(delegate.directBuffer());
  }

  @Override
  public ByteBuf directBuffer(int initialCapacity) {
    return track(delegate.directBuffer(initialCapacity));
  }

  @Override
  public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
    return track(delegate.directBuffer(initialCapacity, maxCapacity));
  }

  @Override
  public CompositeByteBuf compositeBuffer() {
    return track(delegate.compositeBuffer());
  }

  @Override
  public CompositeByteBuf compositeBuffer(int maxNumComponents) {
    return track(delegate.compositeBuffer(maxNumComponents));
  }

  @Override
  public CompositeByteBuf compositeHeapBuffer() {
    return track(delegate.compositeHeapBuffer());
  }

  @Override
  public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
    return track(delegate.compositeHeapBuffer(maxNumComponents));
  }

  @Override
  public CompositeByteBuf compositeDirectBuffer() {
    return track(delegate.compositeDirectBuffer());
  }

  @Override
  public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
    return track(delegate.compositeDirectBuffer(maxNumComponents));
  }

  @Override
  public boolean isDirectBufferPooled() {
    return false;
  }

  @Override
  public int calculateNewCapacity(int minNewCapacity, int maxCapacity) {
    return delegate.calculateNewCapacity(minNewCapacity, maxCapacity);
  }
}
