package io.triplerpc.internal.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.triplerpc.Status;
import java.util.List;

/**
 * Splits a stream's DATA bytes into gRPC messages and hands them out only as fast as the reader asks
 * ({@link #request}). Bytes are acknowledged to HTTP/2 flow control once they belong to a delivered
 * message or to the message a pending request waits for (which may be larger than the window); bytes
 * nobody asked for stay unacknowledged, so a slow reader stalls its sender instead of filling memory.
 *
 * <p>Not thread-safe: owned by the transport's event loop.
 */
public final class MessageDeframer {

  /** Where messages go; called on the event loop. */
  public interface Sink {

    /** One whole message (without its prefix); the sink owns {@code payload}. */
    void onMessage(ByteBuf payload, boolean compressed);

    /**
     * {@code bytes} more received bytes may be acknowledged to HTTP/2 flow control: they belong to
     * delivered messages, or to a message the reader is waiting for.
     */
    void onBytesConsumed(int bytes);

    /** The peer ended the stream and every message before the end was delivered. */
    void onEndOfStream();

    /** The stream cannot be read further; the deframer is closed and holds nothing. */
    void onDeframeError(Status status);

    /**
     * The frame that ends the stream in its body (gRPC-Web's trailers), once the messages before it
     * were delivered, {@code compressed} as messages may be; the deframer is closed, and the sink owns
     * {@code payload}.
     */
    default void onEndFrame(ByteBuf payload, boolean compressed) {
      payload.release();
    }
  }

  private static final int FLAG_COMPRESSED = 1;

  private final Sink sink;
  private final int maxMessageSize;
  private final ByteBufAllocator alloc;
  /** The flag of a frame that ends the stream in its body, or 0 when there is none (gRPC). */
  private final int endFrameFlag;

  /** Bytes received and not yet delivered; null when empty. */
  private ByteBuf pending;
  /** Messages the reader asked for and has not yet received. */
  private long requested;
  /** Length of the message whose prefix was read, or -1 while waiting for a prefix. */
  private int messageLength = -1;
  private boolean messageCompressed;
  /** Whether the frame whose prefix was read ends the stream ({@link #endFrameFlag}). */
  private boolean messageEndsStream;
  private boolean endOfStream;
  private boolean closed;
  private boolean delivering;
  /** Bytes received in total, and acknowledged to flow control in total. */
  private long receivedBytes;
  private long acknowledgedBytes;
  private long deliveredBytes;

  public MessageDeframer(Sink sink, int maxMessageSize, ByteBufAllocator alloc) {
    this(sink, maxMessageSize, alloc, 0);
  }

  /**
   * A deframer whose frames flagged {@code endFrameFlag} end the stream ({@code 0x80}, gRPC-Web's
   * trailers): one goes to {@link Sink#onEndFrame} when the messages before it were delivered, whether
   * or not the reader asks for more.
   */
  public MessageDeframer(Sink sink, int maxMessageSize, ByteBufAllocator alloc, int endFrameFlag) {
    this.sink = sink;
    this.maxMessageSize = maxMessageSize;
    this.alloc = alloc;
    this.endFrameFlag = endFrameFlag;
  }

  /** Takes ownership of {@code data}; delivers what is requested. */
  public void deframe(ByteBuf data, boolean endOfStream) {
    if (closed) {
      data.release();
      return;
    }
    if (data.isReadable()) {
      receivedBytes += data.readableBytes();
      append(data);
    } else {
      data.release();
    }
    if (endOfStream) {
      this.endOfStream = true;
    }
    deliver();
  }

  /** Asks for {@code count} more messages. */
  public void request(int count) {
    if (count <= 0) {
      return;
    }
    requested += count;
    deliver();
  }

  /** Releases what is buffered; nothing more is delivered. */
  public void close() {
    closed = true;
    if (pending != null) {
      pending.release();
      pending = null;
    }
  }

  public boolean isClosed() {
    return closed;
  }

  private void append(ByteBuf data) {
    if (pending == null) {
      pending = data;
      return;
    }
    if (!(pending instanceof CompositeByteBuf)) {
      CompositeByteBuf composite = alloc.compositeBuffer(Integer.MAX_VALUE);
      composite.addComponent(true, pending);
      pending = composite;
    }
    ((CompositeByteBuf) pending).addComponent(true, data);
  }

  private void deliver() {
    if (delivering) {
      return;
    }
    delivering = true;
    try {
      while (!closed && requested > 0 && readMessage()) {
        requested--;
      }
      if (!closed && requested == 0 && endFrameNext()) {
        readMessage();
      }
      if (closed) {
        return;
      }
      // A request is pending: what is buffered is the start of the message it waits for.
      acknowledge(requested > 0 ? receivedBytes : deliveredBytes);
      boolean empty = pending == null || !pending.isReadable();
      if (endOfStream && empty && messageLength < 0) {
        closed = true;
        releasePending();
        sink.onEndOfStream();
      } else if (endOfStream && !hasWholeMessageBuffered()) {
        fail(Status.INTERNAL.withDescription(
            "Stream ended in the middle of a gRPC message (" + bufferedBytes() + " bytes buffered)"));
      }
    } finally {
      delivering = false;
    }
  }

  /** Reads and delivers one message if it is all here. */
  private boolean readMessage() {
    if (messageLength < 0) {
      if (pending == null || pending.readableBytes() < GrpcHeaders.MESSAGE_HEADER_LENGTH) {
        return false;
      }
      int flags = pending.readUnsignedByte();
      if ((flags & ~(FLAG_COMPRESSED | endFrameFlag)) != 0) {
        fail(Status.INTERNAL.withDescription("gRPC frame header has reserved flag bits set: " + flags));
        return false;
      }
      messageEndsStream = endFrameFlag != 0 && (flags & endFrameFlag) != 0;
      long length = pending.readUnsignedInt();
      if (length > maxMessageSize) {
        fail(Status.RESOURCE_EXHAUSTED.withDescription(
            "gRPC message exceeds maximum size " + maxMessageSize + ": " + length));
        return false;
      }
      messageCompressed = (flags & FLAG_COMPRESSED) != 0;
      messageLength = (int) length;
    }
    if (messageLength > 0 && (pending == null || pending.readableBytes() < messageLength)) {
      return false;
    }
    ByteBuf payload = messageLength == 0 ? Unpooled.EMPTY_BUFFER : readPayload(messageLength);
    deliveredBytes += messageLength + GrpcHeaders.MESSAGE_HEADER_LENGTH;
    boolean compressed = messageCompressed;
    messageLength = -1;
    if (messageEndsStream) {
      // Whatever follows the end is not part of the stream.
      acknowledge(receivedBytes);
      close();
      sink.onEndFrame(payload, compressed);
      return false;
    }
    if (pending != null && !pending.isReadable()) {
      releasePending();
    } else if (pending instanceof CompositeByteBuf) {
      ((CompositeByteBuf) pending).discardReadComponents();
    }
    acknowledge(deliveredBytes);
    sink.onMessage(payload, compressed);
    return true;
  }

  /**
   * Takes the next {@code length} bytes as a buffer of their own. From a composite, the message is
   * made of retained slices of the underlying frame buffers: a slice of the composite itself would
   * go wrong when read components are discarded.
   */
  private ByteBuf readPayload(int length) {
    if (!(pending instanceof CompositeByteBuf)) {
      return pending.readRetainedSlice(length);
    }
    CompositeByteBuf composite = (CompositeByteBuf) pending;
    List<ByteBuf> parts = composite.decompose(composite.readerIndex(), length);
    composite.skipBytes(length);
    if (parts.size() == 1) {
      return parts.get(0).retain();
    }
    CompositeByteBuf message = alloc.compositeBuffer(parts.size());
    for (ByteBuf part : parts) {
      message.addComponent(true, part.retain());
    }
    return message;
  }

  private void acknowledge(long upTo) {
    if (upTo > acknowledgedBytes) {
      int bytes = (int) (upTo - acknowledgedBytes);
      acknowledgedBytes = upTo;
      sink.onBytesConsumed(bytes);
    }
  }

  /** Whether the next frame, whole in the buffer, is one that ends the stream. */
  private boolean endFrameNext() {
    if (endFrameFlag == 0) {
      return false;
    }
    if (messageLength >= 0) {
      return messageEndsStream && (messageLength == 0 || (pending != null && pending.readableBytes() >= messageLength));
    }
    if (pending == null || pending.readableBytes() < GrpcHeaders.MESSAGE_HEADER_LENGTH) {
      return false;
    }
    return (pending.getUnsignedByte(pending.readerIndex()) & endFrameFlag) != 0 && hasWholeMessageBuffered();
  }

  private boolean hasWholeMessageBuffered() {
    int readable = pending == null ? 0 : pending.readableBytes();
    if (messageLength >= 0) {
      return readable >= messageLength;
    }
    if (readable < GrpcHeaders.MESSAGE_HEADER_LENGTH) {
      return false;
    }
    long length = pending.getUnsignedInt(pending.readerIndex() + 1);
    return readable - GrpcHeaders.MESSAGE_HEADER_LENGTH >= length;
  }

  private int bufferedBytes() {
    return pending == null ? 0 : pending.readableBytes();
  }

  private void fail(Status status) {
    close();
    sink.onDeframeError(status);
  }

  private void releasePending() {
    if (pending != null) {
      pending.release();
      pending = null;
    }
  }
}
