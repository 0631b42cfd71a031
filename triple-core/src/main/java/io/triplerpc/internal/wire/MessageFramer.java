package io.triplerpc.internal.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.triplerpc.Status;
import io.triplerpc.serialization.MessageCodec;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Serializes a message into one buffer with its 5-byte gRPC prefix, on the calling thread. When the
 * codec knows the size up front the message is written straight into the pooled buffer, with no
 * intermediate array.
 */
public final class MessageFramer {

  private static final int FLAG_COMPRESSED = 1;

  private MessageFramer() {}

  /**
   * Frames {@code message}; compressed with {@code encoding} when it is not null.
   *
   * @throws io.triplerpc.StatusException INTERNAL if the codec fails
   */
  public static <T> ByteBuf frame(
      ByteBufAllocator alloc, MessageCodec<T> codec, T message, MessageEncoding encoding) {
    ByteBuf payload = null;
    try {
      if (encoding == null) {
        return writePrefixed(alloc, codec, message);
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

  private static <T> ByteBuf writePrefixed(ByteBufAllocator alloc, MessageCodec<T> codec, T message)
      throws IOException {
    int size = codec.serializedSize(message);
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
}
