package io.triplerpc.internal.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** A {@code grpc-encoding}: how message bytes are compressed. Thread-safe. */
public enum MessageEncoding {
  GZIP("gzip") {
    @Override
    public OutputStream compress(OutputStream out) throws IOException {
      return new GZIPOutputStream(out, 8192);
    }

    @Override
    public InputStream decompress(InputStream in) throws IOException {
      return new GZIPInputStream(in, 8192);
    }
  };

  /** The value of {@code grpc-accept-encoding} this implementation sends. */
  public static final String ACCEPT_ENCODING = "gzip";

  private final String wireName;

  MessageEncoding(String wireName) {
    this.wireName = wireName;
  }

  /** The name in {@code grpc-encoding}. */
  public String wireName() {
    return wireName;
  }

  /** A stream that compresses into {@code out}; closing it finishes the compressed data. */
  public abstract OutputStream compress(OutputStream out) throws IOException;

  /** A stream of the decompressed bytes of {@code in}. */
  public abstract InputStream decompress(InputStream in) throws IOException;

  /**
   * The encoding named {@code name}, or null for {@code identity} or no header.
   *
   * @throws IllegalArgumentException if the name is not supported
   */
  public static MessageEncoding forName(CharSequence name) {
    if (name == null || name.length() == 0 || "identity".contentEquals(name)) {
      return null;
    }
    if ("gzip".contentEquals(name)) {
      return GZIP;
    }
    throw new IllegalArgumentException("Unsupported grpc-encoding: " + name);
  }

  /** Whether a {@code grpc-accept-encoding} value lists {@code encoding}. */
  public static boolean accepts(CharSequence acceptEncoding, MessageEncoding encoding) {
    if (acceptEncoding == null) {
      return false;
    }
    String[] names = acceptEncoding.toString().split(",");
    for (String name : names) {
      if (name.trim().equals(encoding.wireName)) {
        return true;
      }
    }
    return false;
  }

  /** Compresses the readable bytes of {@code in} (released) into a new buffer after {@code prefix} reserved bytes. */
  ByteBuf compress(ByteBuf in, ByteBuf out) throws IOException {
    try (OutputStream compressing = compress(new ByteBufOutputStream(out));
        InputStream source = new ByteBufInputStream(in, true)) {
      source.transferTo(compressing);
    }
    return out;
  }
}
