package io.triplerpc.internal.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.internal.VirtualThreads;
import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.SerializationNotInstalledException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Decodes one received message payload, on the call's thread. */
public final class MessageCodecs {

  private MessageCodecs() {}

  /**
   * Decodes {@code payload} (not released here).
   *
   * @param what "request" or "response", for the error message
   * @throws StatusException INTERNAL if the bytes do not decode or a compressed message came without
   *     an encoding; RESOURCE_EXHAUSTED if it decompresses past {@code maxSize}; for a value of a class the
   *     service may not instantiate, INVALID_ARGUMENT (a request) or INTERNAL (a response), naming the class;
   *     for a request in a serialization whose artifact is missing (fastjson2), UNIMPLEMENTED, naming it
   */
  public static <T> T decode(
      MessageCodec<T> codec,
      ByteBuf payload,
      boolean compressed,
      MessageEncoding encoding,
      int maxSize,
      String what) {
    try {
      if (!compressed) {
        if (payload.nioBufferCount() == 1) {
          return codec.read(payload.nioBuffer());
        }
        return readContiguous(codec, payload);
      }
      if (encoding == null) {
        throw Status.INTERNAL
            .withDescription("Compressed " + what + " message received, but no grpc-encoding was negotiated")
            .asException();
      }
      // Closed at once: an open inflater holds native memory until the garbage collector runs.
      try (InputStream in = new SizeLimitedInputStream(encoding.decompress(new ByteBufInputStream(payload)), maxSize)) {
        return codec.read(in);
      }
    } catch (StatusException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw decodeFailure(e, what, codec);
    }
  }

  /**
   * The status a message that failed to decode ends its call with, as {@link #decode} describes.
   *
   * @param what "request" or "response"
   * @param codec names the codec in the description
   */
  public static StatusException decodeFailure(Exception failure, String what, Object codec) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof StatusException) {
        return (StatusException) cause;
      }
      if (cause instanceof ClassNotAllowedException) {
        // A request naming such a class is the caller's doing; a response naming one is a server (or a
        // man in the middle) sending what this client will not build: a failure here, as any bad response.
        Status status = what.equals("request") ? Status.INVALID_ARGUMENT : Status.INTERNAL;
        return status.withDescription(cause.getMessage()).withCause(failure).asException();
      }
      if (cause instanceof SerializationNotInstalledException) {
        // A request in a serialization whose artifact this server lacks (fastjson2): the caller did nothing
        // wrong, the server does not implement it; the description names the artifact to add.
        Status status = what.equals("request") ? Status.UNIMPLEMENTED : Status.INTERNAL;
        return status.withDescription(cause.getMessage()).withCause(failure).asException();
      }
    }
    if (failure instanceof MalformedMessageException) {
      // A text format the client wrote by hand (JSON): its mistake, said as such.
      return Status.INVALID_ARGUMENT.withDescription(failure.getMessage()).withCause(failure).asException();
    }
    return Status.INTERNAL
        .withDescription("Could not decode the " + what + " message (" + codec + "): " + failure.getMessage())
        .withCause(failure)
        .asException();
  }

  /**
   * A message that spans several DATA frames arrives as a composite buffer. Decoders read one flat
   * array several times faster than a stream over the pieces (protobuf's array decoder against its
   * stream decoder), and one pooled copy costs far less than the difference.
   */
  private static <T> T readContiguous(MessageCodec<T> codec, ByteBuf payload) throws IOException {
    if (payload.readableBytes() > LARGEST_POOLED_BUFFER) {
      // Past what Netty's allocator pools, the copy would be a fresh array per message (on G1 a
      // humongous one, collected only with the old regions): the codec reads the pieces instead,
      // protobuf's in place.
      return codec.read(payload.nioBuffers());
    }
    ByteBuf flat = VirtualThreads.allocatorFor(payload.alloc()).heapBuffer(payload.readableBytes());
    try {
      // Piece by piece from the payload's side: flat.writeBytes(payload) would have the adaptive
      // allocator's buffer ask the composite for one NIO buffer, a merged copy in a fresh array.
      payload.getBytes(payload.readerIndex(), flat, payload.readableBytes());
      return codec.read(flat.nioBuffer());
    } finally {
      flat.release();
    }
  }

  /** The largest buffer Netty's default (adaptive) allocator hands out again after release: 1 MiB. */
  static final int LARGEST_POOLED_BUFFER = 1 << 20;

  /** Fails with RESOURCE_EXHAUSTED once more than {@code limit} bytes have been read. */
  private static final class SizeLimitedInputStream extends FilterInputStream {

    private final long limit;
    private long count;

    SizeLimitedInputStream(InputStream in, long limit) {
      super(in);
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      count(skipped);
      return skipped;
    }

    private void count(long n) throws IOException {
      count += n;
      if (count > limit) {
        throw new IOException(Status.RESOURCE_EXHAUSTED
            .withDescription("Decompressed gRPC message exceeds maximum size " + limit)
            .asException());
      }
    }
  }
}
