package io.triplerpc.transport.netty.badinput;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.Http2StreamFrame;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A scripted HTTP/2 peer (prior knowledge, cleartext) that sends whatever headers and bytes a test
 * asks for, malformed ones included, and records what comes back on each stream.
 */
final class RawHttp2Client implements AutoCloseable {

  /** What one stream received. */
  static final class Exchange {
    final List<Http2Headers> headerBlocks = new CopyOnWriteArrayList<>();
    final ByteArrayOutputStream data = new ByteArrayOutputStream();
    volatile long resetCode = -1;
    final CompletableFuture<Exchange> done = new CompletableFuture<>();
    volatile Http2StreamChannel stream;

    /** Waits for the stream to end (END_STREAM or RST_STREAM). */
    Exchange await() throws Exception {
      return done.get(20, TimeUnit.SECONDS);
    }

    Http2Headers first() {
      return headerBlocks.get(0);
    }

    /** The grpc-status of the last header block, or null. */
    String grpcStatus() {
      CharSequence status = headerBlocks.get(headerBlocks.size() - 1).get("grpc-status");
      return status == null ? null : status.toString();
    }

    String grpcMessage() {
      CharSequence message = headerBlocks.get(headerBlocks.size() - 1).get("grpc-message");
      return message == null ? "" : message.toString();
    }
  }

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel channel;
  private final String authority;

  RawHttp2Client(int port) throws Exception {
    this.authority = "127.0.0.1:" + port;
    this.channel = new Bootstrap()
        .group(group)
        .channel(NioSocketChannel.class)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(
                // A hostile peer: it sends header blocks over the server's advertised limit anyway.
                Http2FrameCodecBuilder.forClient().autoAckPingFrame(true).encoderIgnoreMaxHeaderListSize(true).build(),
                new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()));
          }
        })
        .connect("127.0.0.1", port)
        .syncUninterruptibly()
        .channel();
  }

  /** Headers of a valid gRPC request to {@code path}. */
  Http2Headers grpcHeaders(String path) {
    Http2Headers headers = new DefaultHttp2Headers()
        .method("POST").scheme("http").path(path).authority(authority);
    headers.add("content-type", "application/grpc");
    headers.add("te", "trailers");
    return headers;
  }

  /** Opens a stream with {@code headers}, then sends each DATA chunk; the last one ends the stream if asked. */
  Exchange send(Http2Headers headers, boolean endStream, byte[]... chunks) throws Exception {
    Exchange exchange = new Exchange();
    Http2StreamChannel stream = new Http2StreamChannelBootstrap(channel)
        .handler(new Recorder(exchange))
        .open()
        .get(10, TimeUnit.SECONDS);
    exchange.stream = stream;
    stream.write(new DefaultHttp2HeadersFrame(headers, endStream && chunks.length == 0));
    for (int i = 0; i < chunks.length; i++) {
      boolean last = endStream && i == chunks.length - 1;
      stream.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(chunks[i]), last));
    }
    stream.flush();
    return exchange;
  }

  /** Resets the stream of {@code exchange} with CANCEL. */
  void cancel(Exchange exchange) throws Exception {
    exchange.stream.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL)).get(10, TimeUnit.SECONDS);
  }

  /** Closes the TCP connection abruptly. */
  void disconnect() throws Exception {
    channel.close().get(10, TimeUnit.SECONDS);
  }

  /** A gRPC message: flags byte, 4-byte length, payload. */
  static byte[] frame(int flags, byte[] payload) {
    return frame(flags, payload.length, payload);
  }

  /** A gRPC message prefix claiming {@code length} bytes, followed by {@code payload}. */
  static byte[] frame(int flags, int length, byte[] payload) {
    byte[] bytes = new byte[5 + payload.length];
    bytes[0] = (byte) flags;
    bytes[1] = (byte) (length >>> 24);
    bytes[2] = (byte) (length >>> 16);
    bytes[3] = (byte) (length >>> 8);
    bytes[4] = (byte) length;
    System.arraycopy(payload, 0, bytes, 5, payload.length);
    return bytes;
  }

  @Override
  public void close() throws Exception {
    channel.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
  }

  /** Records the frames of one stream. */
  private static final class Recorder extends SimpleChannelInboundHandler<Http2StreamFrame> {
    private final Exchange exchange;

    Recorder(Exchange exchange) {
      this.exchange = exchange;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Http2StreamFrame frame) {
      if (frame instanceof Http2HeadersFrame) {
        Http2HeadersFrame headers = (Http2HeadersFrame) frame;
        exchange.headerBlocks.add(headers.headers());
        if (headers.isEndStream()) {
          exchange.done.complete(exchange);
        }
      } else if (frame instanceof Http2ResetFrame) {
        exchange.resetCode = ((Http2ResetFrame) frame).errorCode();
        exchange.done.complete(exchange);
      } else if (frame instanceof Http2DataFrame) {
        Http2DataFrame data = (Http2DataFrame) frame;
        byte[] bytes = ByteBufUtil.getBytes(data.content());
        exchange.data.write(bytes, 0, bytes.length);
        if (data.isEndStream()) {
          exchange.done.complete(exchange);
        }
      }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
      if (event instanceof Http2ResetFrame) {
        exchange.resetCode = ((Http2ResetFrame) event).errorCode();
        exchange.done.complete(exchange);
      } else if (event instanceof Http2GoAwayFrame) {
        // The server's GOAWAY names a lower last stream: it never processed this one. The frame is a
        // retained duplicate for this stream alone.
        ((Http2GoAwayFrame) event).release();
        exchange.done.complete(exchange);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      exchange.done.complete(exchange);
    }
  }
}
