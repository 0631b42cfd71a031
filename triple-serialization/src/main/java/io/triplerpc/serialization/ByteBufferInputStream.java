package io.triplerpc.serialization;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** An {@link InputStream} over the remaining bytes of a {@link ByteBuffer}; not thread-safe. */
final class ByteBufferInputStream extends InputStream {

  private final ByteBuffer buffer;

  ByteBufferInputStream(ByteBuffer buffer) {
    this.buffer = buffer;
  }

  @Override
  public int read() {
    return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    if (!buffer.hasRemaining()) {
      return -1;
    }
    int n = Math.min(len, buffer.remaining());
    buffer.get(b, off, n);
    return n;
  }

  @Override
  public int available() {
    return buffer.remaining();
  }
}
