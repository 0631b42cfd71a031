package io.triplerpc.serialization.wrapper;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte buffer, one per thread and reused, that collects serialized arguments so their lengths
 * are known before the wrapper's length prefixes are written. Confined to its thread; a nested use while
 * the thread's buffer is lent gets a fresh one.
 */
final class Scratch extends OutputStream {

  private static final ThreadLocal<Scratch> CURRENT = ThreadLocal.withInitial(Scratch::new);
  private static final int INITIAL_SIZE = 512;
  /** A buffer grown past this by one large message is dropped afterwards rather than kept by the thread. */
  private static final int RETAINED_MAX = 1 << 20;

  private byte[] buffer = new byte[INITIAL_SIZE];
  /** Bytes written since {@link #acquire}; {@code buffer[0, count)} holds them. */
  private int count;
  private boolean lent;

  private Scratch() {}

  /** Lends the calling thread's buffer, emptied. */
  static Scratch acquire() {
    Scratch scratch = CURRENT.get();
    if (scratch.lent) {
      return new Scratch();
    }
    scratch.lent = true;
    scratch.count = 0;
    return scratch;
  }

  /** Gives the buffer back to its thread. */
  void release() {
    count = 0;
    if (buffer.length > RETAINED_MAX) {
      buffer = new byte[INITIAL_SIZE];
    }
    lent = false;
  }

  int size() {
    return count;
  }

  /** The backing array; valid until the next write. */
  byte[] array() {
    return buffer;
  }

  @Override
  public void write(int b) {
    ensureCapacity(count + 1);
    buffer[count++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensureCapacity(count + len);
    System.arraycopy(b, off, buffer, count, len);
    count += len;
  }

  private void ensureCapacity(int needed) {
    if (needed < 0) {
      throw new OutOfMemoryError("A message over 2 GiB");
    }
    if (needed > buffer.length) {
      int doubled = buffer.length << 1;
      buffer = Arrays.copyOf(buffer, doubled > needed ? doubled : needed);
    }
  }
}
