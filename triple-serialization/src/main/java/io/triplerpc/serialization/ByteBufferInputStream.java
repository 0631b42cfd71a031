package io.triplerpc.serialization;

import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * An {@link InputStream} over the remaining bytes of one or more {@link ByteBuffer}s, read in order;
 * moves their positions; not thread-safe.
 */
final class ByteBufferInputStream extends InputStream {

  private final ByteBuffer[] buffers;
  private int current;

  ByteBufferInputStream(ByteBuffer... buffers) {
    this.buffers = buffers;
  }

  @Override
  public int read() {
    ByteBuffer buffer = nonEmpty();
    return buffer == null ? -1 : buffer.get() & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    ByteBuffer buffer = nonEmpty();
    if (buffer == null) {
      return -1;
    }
    int n = Math.min(len, buffer.remaining());
    buffer.get(b, off, n);
    return n;
  }

  @Override
  public int available() {
    long left = 0;
    for (int i = current; i < buffers.length; i++) {
      left += buffers[i].remaining();
    }
    return (int) Math.min(left, Integer.MAX_VALUE);
  }

  /** The buffer reads continue from, or null at the end of the last. */
  private ByteBuffer nonEmpty() {
    while (current < buffers.length) {
      if (buffers[current].hasRemaining()) {
        return buffers[current];
      }
      current++;
    }
    return null;
  }
}
