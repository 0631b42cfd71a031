package io.triplerpc.transport.netty.abuse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One end of an HTTP/2 connection over a plain blocking socket, written and read frame by frame, so
 * that a test can behave as no real peer would: send a thousand PINGs and read none of the answers,
 * reset every stream it opens, send empty DATA frames. Not thread-safe: one thread writes, the same
 * or one other thread reads.
 */
final class RawFramePeer implements AutoCloseable {

  static final int DATA = 0x0;
  static final int HEADERS = 0x1;
  static final int RST_STREAM = 0x3;
  static final int SETTINGS = 0x4;
  static final int PING = 0x6;
  static final int GOAWAY = 0x7;
  static final int WINDOW_UPDATE = 0x8;
  static final int FLAG_END_STREAM = 0x1;
  static final int FLAG_ACK = 0x1;
  static final int FLAG_END_HEADERS = 0x4;
  static final long ENHANCE_YOUR_CALM = 0xb;

  private static final byte[] CLIENT_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  /** A frame as read: its header fields and payload. */
  record Frame(int type, int flags, int streamId, byte[] payload) {

    boolean has(int flag) {
      return (flags & flag) != 0;
    }

    /** A GOAWAY's error code. */
    long errorCode() {
      return Integer.toUnsignedLong(ByteBuffer.wrap(payload, 4, 4).getInt());
    }

    /** A GOAWAY's debug data. */
    String debugData() {
      return new String(payload, 8, payload.length - 8, StandardCharsets.UTF_8);
    }
  }

  /** What the peer read until the connection ended. */
  record Transcript(int[] countByType, List<Frame> goAways, boolean reset, boolean timedOut) {

    int count(int type) {
      return countByType[type];
    }

    /** The last GOAWAY's error code, or -1 if none came. */
    long goAwayError() {
      return goAways.isEmpty() ? -1 : goAways.get(goAways.size() - 1).errorCode();
    }

    /** The frames by type that came, and how the connection ended: for a failing assertion's message. */
    @Override
    public String toString() {
      StringBuilder text = new StringBuilder("frames by type {");
      for (int type = 0; type < countByType.length; type++) {
        if (countByType[type] > 0) {
          text.append(' ').append(type).append(": ").append(countByType[type]);
        }
      }
      return text.append(" }, ").append(goAways.size()).append(" GOAWAY, ended by ")
          .append(reset ? "a reset" : timedOut ? "the read timeout" : "end of stream").toString();
    }
  }

  private final Socket socket;
  private final DataOutputStream out;
  private final DataInputStream in;
  private final DefaultHttp2HeadersEncoder hpack = new DefaultHttp2HeadersEncoder();

  private RawFramePeer(Socket socket) throws IOException {
    this.socket = socket;
    // Generous, so that a test that fails hangs no longer than this on a read.
    socket.setSoTimeout(Integer.getInteger("peer.timeout", 30_000));
    this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
  }

  /** A client that has sent the preface and an empty SETTINGS frame (not yet flushed). */
  static RawFramePeer client(int port) throws IOException {
    Socket socket = new Socket();
    // A small receive window, so that what the server cannot send waits in the server, not in our kernel.
    socket.setReceiveBufferSize(4096);
    socket.connect(new java.net.InetSocketAddress("127.0.0.1", port));
    RawFramePeer peer = new RawFramePeer(socket);
    peer.out.write(CLIENT_PREFACE);
    peer.settings();
    return peer;
  }

  /** The server end of {@code socket}, once the client's preface is read; sends an empty SETTINGS. */
  static RawFramePeer server(Socket socket) throws IOException {
    RawFramePeer peer = new RawFramePeer(socket);
    byte[] preface = new byte[CLIENT_PREFACE.length];
    peer.in.readFully(preface);
    if (!java.util.Arrays.equals(preface, CLIENT_PREFACE)) {
      throw new IOException("not an HTTP/2 client preface");
    }
    peer.settings();
    peer.flush();
    return peer;
  }

  void frame(int type, int flags, int streamId, byte[] payload) throws IOException {
    out.writeByte(payload.length >>> 16);
    out.writeShort(payload.length & 0xffff);
    out.writeByte(type);
    out.writeByte(flags);
    out.writeInt(streamId);
    out.write(payload);
  }

  void settings() throws IOException {
    frame(SETTINGS, 0, 0, new byte[0]);
  }

  /** SETTINGS with one parameter: {@code id} (such as 0x4, SETTINGS_INITIAL_WINDOW_SIZE) set to {@code value}. */
  void settings(int id, int value) throws IOException {
    frame(SETTINGS, 0, 0, ByteBuffer.allocate(6).putShort((short) id).putInt(value).array());
  }

  void ping(long data) throws IOException {
    frame(PING, 0, 0, ByteBuffer.allocate(8).putLong(data).array());
  }

  void headers(int streamId, Http2Headers headers, boolean endStream) throws IOException {
    ByteBuf block = Unpooled.buffer();
    byte[] bytes;
    try {
      hpack.encodeHeaders(streamId, headers, block);
      bytes = ByteBufUtil.getBytes(block);
    } catch (Http2Exception e) {
      throw new IOException(e);
    } finally {
      block.release();
    }
    frame(HEADERS, FLAG_END_HEADERS | (endStream ? FLAG_END_STREAM : 0), streamId, bytes);
  }

  void data(int streamId, byte[] payload, boolean endStream) throws IOException {
    frame(DATA, endStream ? FLAG_END_STREAM : 0, streamId, payload);
  }

  void windowUpdate(int streamId, int increment) throws IOException {
    frame(WINDOW_UPDATE, 0, streamId, ByteBuffer.allocate(4).putInt(increment).array());
  }

  void rstStream(int streamId, long errorCode) throws IOException {
    frame(RST_STREAM, 0, streamId, ByteBuffer.allocate(4).putInt((int) errorCode).array());
  }

  /** Writes a frame to the peer's buffer; see {@link #flood}. */
  @FunctionalInterface
  interface FrameWriter {
    void write(RawFramePeer peer, int index) throws IOException;
  }

  /**
   * Writes frames and reads nothing until the other side closes the connection, which shows as a
   * failed write; at most {@code limit} frames.
   *
   * @return the frames written before the connection broke, or -1 if all {@code limit} went out
   */
  long flood(FrameWriter writer, long limit) {
    long written = 0;
    try {
      while (written < limit) {
        writer.write(this, (int) written);
        written++;
        if (written % 1024 == 0) {
          out.flush();
        }
      }
      out.flush();
      return -1;
    } catch (IOException closed) {
      return written;
    }
  }

  void flush() throws IOException {
    out.flush();
  }

  /** The next frame, or null once the connection has ended (closed or reset). */
  Frame read() throws IOException {
    int length;
    try {
      length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
    } catch (EOFException | SocketException e) {
      return null;
    }
    int type = in.readUnsignedByte();
    int flags = in.readUnsignedByte();
    int streamId = in.readInt() & Integer.MAX_VALUE;
    byte[] payload = new byte[length];
    in.readFully(payload);
    return new Frame(type, flags, streamId, payload);
  }

  /** The next frame of {@code type}, skipping others; null if the connection ends first. */
  Frame readUntil(int type) throws IOException {
    for (Frame frame = read(); frame != null; frame = read()) {
      if (frame.type() == type) {
        return frame;
      }
    }
    return null;
  }

  /** Reads every frame until the other side closes the connection. */
  Transcript readToEnd() throws IOException {
    int[] counts = new int[256];
    List<Frame> goAways = new ArrayList<>();
    boolean reset = false;
    boolean timedOut = false;
    while (true) {
      Frame frame;
      try {
        frame = read();
      } catch (java.net.SocketTimeoutException e) {
        timedOut = true;
        break;
      } catch (SocketException e) {
        reset = true;
        break;
      }
      if (frame == null) {
        break;
      }
      counts[frame.type()]++;
      if (frame.type() == GOAWAY) {
        goAways.add(frame);
      }
    }
    return new Transcript(counts, goAways, reset, timedOut);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
