package io.triplerpc.internal.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.CompositeByteBuf;
import io.triplerpc.Status;
import io.triplerpc.serialization.MessageCodec;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Serializes a message into one buffer with its 5-byte gRPC prefix, on the calling thread. When the
 * codec knows the size up front the message is written straight into the pooled buffer, with no
 * intermediate array; a message larger than the allocator pools is written into pooled pieces.
 */
public final class MessageFramer {

  private static final int FLAG_COMPRESSED = 1;

  /** Pieces of a message too large for one pooled buffer: well inside what the allocator pools. */
  static final int PIECE_SIZE = 256 * 1024;

  private MessageFramer() {}

  /**
   * Frames {@code message}; compressed with {@code encoding} when it is not null.
   *
   * @throws io.triplerpc.StatusException INTERNAL if the codec fails
   */
  public static <T> ByteBuf frame(
      ByteBufAllocator alloc, MessageCodec<T> codec, T message, MessageEncoding encoding) {
    return frame(alloc, codec, message, encoding, encoding == null ? codec.serializedSize(message) : -1);
  }

  /**
   * As {@link #frame(ByteBufAllocator, MessageCodec, Object, MessageEncoding)}, with the codec's
   * {@link MessageCodec#serializedSize} of {@code message} already asked for ({@code size}; unused when
   * compressing).
   */
  public static <T> ByteBuf frame(
      ByteBufAllocator alloc, MessageCodec<T> codec, T message, MessageEncoding encoding, int size) {
    ByteBuf payload = null;
    try {
      if (encoding == null) {
        return writePrefixed(alloc, codec, message, size);
      }
      payload = alloc.buffer();
      codec.write(message, new ByteBufOutputStream(payload));
      ByteBuf framed = alloc.buffer(payload.readableBytes() / 2 + 32);
      framed.writerIndex(GrpcHeaders.MESSAGE_HEADER_LENGTH);
      ByteBuf source = payload;
      payload = null;
      try {
        encoding.compress(source, framed);
      } catch (IOException | RuntimeException e) {
        framed.release();
        throw e;
      }
      framed.setByte(0, FLAG_COMPRESSED);
      framed.setInt(1, framed.readableBytes() - GrpcHeaders.MESSAGE_HEADER_LENGTH);
      return framed;
    } catch (IOException | RuntimeException e) {
      if (payload != null) {
        payload.release();
      }
      throw Status.INTERNAL.withDescription("Failed to serialize " + message.getClass().getName() + ": " + e)
          .withCause(e).asException();
    }
  }

  private static <T> ByteBuf writePrefixed(ByteBufAllocator alloc, MessageCodec<T> codec, T message, int size)
      throws IOException {
    if (size > MessageCodecs.LARGEST_POOLED_BUFFER - GrpcHeaders.MESSAGE_HEADER_LENGTH) {
      return writeInPieces(alloc, codec, message, size);
    }
    if (size >= 0) {
      ByteBuf framed = alloc.buffer(GrpcHeaders.MESSAGE_HEADER_LENGTH + size);
      try {
        framed.writeByte(0).writeInt(size);
        if (size > 0) {
          ByteBuffer target = framed.nioBuffer(GrpcHeaders.MESSAGE_HEADER_LENGTH, size);
          codec.write(message, target);
          framed.writerIndex(GrpcHeaders.MESSAGE_HEADER_LENGTH + size);
        }
        return framed;
      } catch (IOException | RuntimeException e) {
        framed.release();
        throw e;
      }
    }
    ByteBuf framed = alloc.buffer();
    try {
      framed.writerIndex(GrpcHeaders.MESSAGE_HEADER_LENGTH);
      codec.write(message, new ByteBufOutputStream(framed));
      framed.setByte(0, 0);
      framed.setInt(1, framed.readableBytes() - GrpcHeaders.MESSAGE_HEADER_LENGTH);
      return framed;
    } catch (IOException | RuntimeException e) {
      framed.release();
      throw e;
    }
  }

  /**
   * One buffer past the largest pooled size would be a fresh allocation per message (mapped and
   * zeroed by the kernel, or a humongous array on G1): the message goes through the codec's stream
   * into pooled pieces instead, which HTTP/2 slices into DATA frames anyway.
   */
  private static <T> ByteBuf writeInPieces(ByteBufAllocator alloc, MessageCodec<T> codec, T message, int size)
      throws IOException {
    int total = GrpcHeaders.MESSAGE_HEADER_LENGTH + size;
    int pieces = (int) ((total + (long) PIECE_SIZE - 1) / PIECE_SIZE);
    // As many components as pieces: a composite past its limit consolidates into one large buffer.
    CompositeByteBuf framed = alloc.compositeBuffer(pieces);
    try {
      for (int left = total; left > 0; left -= PIECE_SIZE) {
        int length = Math.min(PIECE_SIZE, left);
        ByteBuf piece = alloc.buffer(length, length);
        framed.addComponent(false, piece.writerIndex(length));
      }
      framed.writeByte(0).writeInt(size);
      codec.write(message, new ByteBufOutputStream(framed));
      if (framed.writerIndex() != total) {
        throw new IOException("The codec wrote " + (framed.writerIndex() - GrpcHeaders.MESSAGE_HEADER_LENGTH)
            + " bytes after announcing " + size);
      }
      return framed;
    } catch (IOException | RuntimeException e) {
      framed.release();
      throw e;
    }
  }
}
