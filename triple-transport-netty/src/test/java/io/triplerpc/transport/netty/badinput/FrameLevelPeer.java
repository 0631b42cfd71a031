package io.triplerpc.transport.netty.badinput;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * A scripted HTTP/2 client over a plain socket that writes frames byte by byte as a test says, in any
 * order and with any stream id (Netty's codec refuses to send most of what these tests need), and
 * reads the server's frames one at a time. Blocking; reads give up after 10 seconds.
 */
final class FrameLevelPeer implements AutoCloseable {

  static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  static final int END_STREAM = 0x1;
  static final int END_HEADERS = 0x4;
  static final int ACK = 0x1;

  /** A frame from the server. */
  record Frame(int type, int flags, int streamId, byte[] payload) {

    /** GOAWAY's last-stream-id. */
    int lastStreamId() {
      return readInt(0) & 0x7fffffff;
    }

    /** GOAWAY's or RST_STREAM's error code. */
    long errorCode() {
      return Integer.toUnsignedLong(readInt(type == Http2FrameTypes.GO_AWAY ? 4 : 0));
    }

    boolean endsStream() {
      return (type == Http2FrameTypes.HEADERS || type == Http2FrameTypes.DATA) && (flags & END_STREAM) != 0;
    }

    private int readInt(int at) {
      return (payload[at] & 0xff) << 24 | (payload[at + 1] & 0xff) << 16 | (payload[at + 2] & 0xff) << 8
          | payload[at + 3] & 0xff;
    }

    @Override
    public String toString() {
      return "Frame(type " + type + ", flags " + flags + ", stream " + streamId + ", " + payload.length + " bytes)";
    }
  }

  private final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;
  /** One HPACK encoder for the connection, so its dynamic table matches the server's decoder. */
  private final DefaultHttp2HeadersEncoder hpack = new DefaultHttp2HeadersEncoder();

  FrameLevelPeer(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    out = socket.getOutputStream();
    in = new DataInputStream(socket.getInputStream());
  }

  /** Sends the preface and an empty SETTINGS, then reads up to the server's SETTINGS and acknowledges it. */
  FrameLevelPeer handshake() throws IOException {
    out.write(PREFACE);
    writeFrame(Http2FrameTypes.SETTINGS, 0, 0, new byte[0]);
    Frame frame;
    do {
      frame = read();
    } while (frame.type() != Http2FrameTypes.SETTINGS || (frame.flags() & ACK) != 0);
    writeFrame(Http2FrameTypes.SETTINGS, ACK, 0, new byte[0]);
    return this;
  }

  /** Headers of a request for {@code path} as curl sends them; not validated, so that tests can spoil them. */
  static Http2Headers request(String method, String path) {
    return new DefaultHttp2Headers(false).method(method).scheme("http").path(path).authority("127.0.0.1");
  }

  /** One HEADERS frame holding the whole block of {@code headers}. */
  void headers(int streamId, Http2Headers headers, boolean endStream) throws IOException {
    ByteBuf block = Unpooled.buffer();
    try {
      hpack.encodeHeaders(streamId, headers, block);
      byte[] bytes = new byte[block.readableBytes()];
      block.readBytes(bytes);
      writeFrame(Http2FrameTypes.HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), streamId, bytes);
    } catch (Http2Exception e) {
      throw new IOException(e);
    } finally {
      block.release();
    }
  }

  void writeFrame(int type, int flags, int streamId, byte[] payload) throws IOException {
    ByteArrayOutputStream frame = new ByteArrayOutputStream(9 + payload.length);
    frame.write(payload.length >>> 16);
    frame.write(payload.length >>> 8);
    frame.write(payload.length);
    frame.write(type);
    frame.write(flags);
    frame.write(streamId >>> 24);
    frame.write(streamId >>> 16);
    frame.write(streamId >>> 8);
    frame.write(streamId);
    frame.write(payload, 0, payload.length);
    writeRaw(frame.toByteArray());
  }

  void writeRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** The next frame; EOFException once the server closed the connection. */
  Frame read() throws IOException {
    int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
    int type = in.readUnsignedByte();
    int flags = in.readUnsignedByte();
    int streamId = in.readInt() & 0x7fffffff;
    byte[] payload = new byte[length];
    in.readFully(payload);
    return new Frame(type, flags, streamId, payload);
  }

  /** Reads up to the first frame of {@code type} (on {@code streamId}, unless it is -1). */
  Frame awaitFrame(int type, int streamId) throws IOException {
    while (true) {
      Frame frame = read();
      if (frame.type() == type && (streamId == -1 || frame.streamId() == streamId)) {
        return frame;
      }
    }
  }

  /** Reads up to the frame that ends {@code streamId}, or its RST_STREAM. */
  Frame awaitEnd(int streamId) throws IOException {
    while (true) {
      Frame frame = read();
      if (frame.streamId() == streamId && (frame.endsStream() || frame.type() == Http2FrameTypes.RST_STREAM)) {
        return frame;
      }
    }
  }

  /** Whether the server closed the connection, once what it sent before is read (and dropped). */
  boolean closedByServer() throws IOException {
    try {
      while (true) {
        read();
      }
    } catch (EOFException | SocketException e) {
      // SocketException: a reset, when the server closed with bytes of ours still unread.
      return true;
    }
  }

  /** The next byte, or -1 at the end of the stream: whether the server wrote anything before closing. */
  int readByte() throws IOException {
    return in.read();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
