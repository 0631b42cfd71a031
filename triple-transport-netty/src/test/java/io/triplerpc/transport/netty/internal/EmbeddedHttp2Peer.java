package io.triplerpc.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.concurrent.MockTicker;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The far end of an {@link EmbeddedChannel} that runs one of Triple's HTTP/2 handlers: writes frames
 * into it as a peer would, reads back the frames the handler wrote, and moves the event loop's mock
 * clock. Time passes only when {@link #advance} says so.
 */
public final class EmbeddedHttp2Peer {

  public static final int DATA = 0x0;
  public static final int HEADERS = 0x1;
  public static final int RST_STREAM = 0x3;
  public static final int SETTINGS = 0x4;
  public static final int PING = 0x6;
  public static final int GOAWAY = 0x7;
  public static final int FLAG_ACK = 0x1;
  public static final int FLAG_END_STREAM = 0x1;
  private static final int FLAG_END_HEADERS = 0x4;

  /** A frame the handler wrote. */
  public record Frame(int type, int flags, int streamId, byte[] payload) {

    public boolean has(int flag) {
      return (flags & flag) != 0;
    }

    /** A PING's data. */
    public long pingData() {
      return ByteBuffer.wrap(payload).getLong();
    }

    /** A GOAWAY's last stream id. */
    public int lastStreamId() {
      return ByteBuffer.wrap(payload).getInt() & 0x7fffffff;
    }

    /** A GOAWAY's or RST_STREAM's error code. */
    public long errorCode() {
      return Integer.toUnsignedLong(ByteBuffer.wrap(payload, type == GOAWAY ? 4 : 0, 4).getInt());
    }

    /** A GOAWAY's debug data. */
    public String debugData() {
      return new String(payload, 8, payload.length - 8, StandardCharsets.UTF_8);
    }

    /** A SETTINGS frame's value of the setting {@code id}, or -1 when it does not set it. */
    public long setting(int id) {
      ByteBuffer entries = ByteBuffer.wrap(payload);
      long value = -1;
      while (entries.remaining() >= 6) {
        int entryId = entries.getShort() & 0xffff;
        long entryValue = Integer.toUnsignedLong(entries.getInt());
        if (entryId == id) {
          value = entryValue;
        }
      }
      return value;
    }

    /** Whether this is a PING (not an ACK) of {@code data}. */
    public boolean isPing(long data) {
      return type == PING && !has(FLAG_ACK) && pingData() == data;
    }

    @Override
    public String toString() {
      return "Frame[type=" + type + ", flags=" + flags + ", stream=" + streamId + ", " + payload.length + " bytes"
          + (type == RST_STREAM || type == GOAWAY ? ", error " + errorCode() : "") + "]";
    }
  }

  private final EmbeddedChannel channel;
  private final MockTicker ticker;
  private final DefaultHttp2HeadersEncoder hpack = new DefaultHttp2HeadersEncoder();
  /** Reads the handler's header blocks; HPACK is stateful, so every HEADERS frame goes through it in order. */
  private final DefaultHttp2HeadersDecoder headersDecoder = new DefaultHttp2HeadersDecoder(false);
  /** What the handler wrote and {@link #frames()} has not parsed yet: the start of a frame. */
  private final ByteBuf pending = Unpooled.buffer();
  /** Bytes of the client preface still to skip in what the handler writes (a client handler's). */
  private int prefaceToSkip;

  /**
   * @param handlerIsClient whether the handler is a client's, so that what it writes starts with the
   *     client preface
   */
  public EmbeddedHttp2Peer(EmbeddedChannel channel, MockTicker ticker, boolean handlerIsClient) {
    this.channel = channel;
    this.ticker = ticker;
    this.prefaceToSkip = handlerIsClient ? Http2CodecUtil.connectionPrefaceBuf().readableBytes() : 0;
  }

  public EmbeddedChannel channel() {
    return channel;
  }

  /** Lets {@code time} pass, and runs what came due. */
  public void advance(Duration time) {
    ticker.advance(time.toNanos(), TimeUnit.NANOSECONDS);
    channel.runScheduledPendingTasks();
    channel.runPendingTasks();
  }

  /** Runs what the handler queued (a write queue's drain, say). */
  public void runPendingTasks() {
    channel.runPendingTasks();
  }

  /** The client preface and an empty SETTINGS, as a client starts. */
  public void sendClientPreface() {
    write(Http2CodecUtil.connectionPrefaceBuf());
    sendFrame(SETTINGS, 0, 0, new byte[0]);
  }

  /** An empty SETTINGS frame, as a server starts. */
  public void sendSettings() {
    sendFrame(SETTINGS, 0, 0, new byte[0]);
  }

  public void sendSettingsAck() {
    sendFrame(SETTINGS, FLAG_ACK, 0, new byte[0]);
  }

  public void sendPing(long data) {
    sendFrame(PING, 0, 0, ByteBuffer.allocate(8).putLong(data).array());
  }

  public void sendPingAck(long data) {
    sendFrame(PING, FLAG_ACK, 0, ByteBuffer.allocate(8).putLong(data).array());
  }

  public void sendRstStream(int streamId, long errorCode) {
    sendFrame(RST_STREAM, 0, streamId, ByteBuffer.allocate(4).putInt((int) errorCode).array());
  }

  public void sendGoAway(int lastStreamId, long errorCode, String debugData) {
    byte[] debug = debugData.getBytes(StandardCharsets.UTF_8);
    sendFrame(GOAWAY, 0, 0,
        ByteBuffer.allocate(8 + debug.length).putInt(lastStreamId).putInt((int) errorCode).put(debug).array());
  }

  /** A gRPC request's HEADERS for {@code path} on {@code streamId}, not ending the stream. */
  public void sendGrpcRequestHeaders(int streamId, String path) {
    Http2Headers headers = new DefaultHttp2Headers()
        .method("POST").scheme("http").path(path).authority("localhost");
    headers.add("content-type", "application/grpc");
    headers.add("te", "trailers");
    sendHeaders(streamId, headers, false);
  }

  /** A gRPC response's HEADERS on {@code streamId}, as a server answers. */
  public void sendGrpcResponseHeaders(int streamId) {
    Http2Headers headers = new DefaultHttp2Headers().status("200");
    headers.add("content-type", "application/grpc");
    sendHeaders(streamId, headers, false);
  }

  public void sendHeaders(int streamId, Http2Headers headers, boolean endStream) {
    ByteBuf block = Unpooled.buffer();
    try {
      hpack.encodeHeaders(streamId, headers, block);
    } catch (Http2Exception e) {
      throw new IllegalStateException(e);
    }
    byte[] payload = ByteBufUtil.getBytes(block);
    block.release();
    sendFrame(HEADERS, FLAG_END_HEADERS | (endStream ? FLAG_END_STREAM : 0), streamId, payload);
  }

  public void sendFrame(int type, int flags, int streamId, byte[] payload) {
    ByteBuf frame = Unpooled.buffer(9 + payload.length);
    frame.writeMedium(payload.length).writeByte(type).writeByte(flags).writeInt(streamId).writeBytes(payload);
    write(frame);
  }

  public void write(ByteBuf bytes) {
    channel.writeInbound(bytes);
    channel.runPendingTasks();
  }

  /** The frames the handler wrote since the last call (the server preface, if any, skipped). */
  public List<Frame> frames() {
    ByteBuf out;
    while ((out = channel.readOutbound()) != null) {
      // Copied and released at once: what the handler wrote may share buffers with what it still holds.
      pending.writeBytes(out);
      out.release();
    }
    int skip = Math.min(prefaceToSkip, pending.readableBytes());
    pending.skipBytes(skip);
    prefaceToSkip -= skip;
    List<Frame> read = new ArrayList<>();
    while (pending.readableBytes() >= 9) {
      int length = pending.getUnsignedMedium(pending.readerIndex());
      if (pending.readableBytes() < 9 + length) {
        break;
      }
      pending.skipBytes(3);
      int type = pending.readUnsignedByte();
      int flags = pending.readUnsignedByte();
      int streamId = pending.readInt() & 0x7fffffff;
      byte[] payload = new byte[length];
      pending.readBytes(payload);
      read.add(new Frame(type, flags, streamId, payload));
    }
    pending.discardReadBytes();
    return read;
  }

  /**
   * The header block of a HEADERS frame the handler wrote (one frame, END_HEADERS). Decode every
   * HEADERS frame read, in order: HPACK's table depends on the blocks before.
   */
  public Http2Headers headers(Frame frame) {
    ByteBuf block = Unpooled.wrappedBuffer(frame.payload());
    try {
      return headersDecoder.decodeHeaders(frame.streamId(), block);
    } catch (Http2Exception e) {
      throw new IllegalStateException(e);
    } finally {
      block.release();
    }
  }

  /** The frames of {@code type} the handler wrote since the last call to this or {@link #frames()}. */
  public List<Frame> frames(int type) {
    List<Frame> ofType = new ArrayList<>();
    for (Frame frame : frames()) {
      if (frame.type() == type) {
        ofType.add(frame);
      }
    }
    return ofType;
  }

  /**
   * Closes the connection as a lost socket would, and releases what was read and not parsed and what
   * the channel still holds. Not {@code channel.close()}: through the pipeline, a server handler
   * waits for its streams in flight to end before it closes, and would hold their data.
   */
  public void close() {
    if (pending.refCnt() > 0) {
      pending.release();
    }
    if (channel.isOpen()) {
      channel.unsafe().close(channel.voidPromise());
      channel.runPendingTasks();
    }
    channel.finishAndReleaseAll();
  }
}
