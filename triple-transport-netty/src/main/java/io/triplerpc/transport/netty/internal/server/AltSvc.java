package io.triplerpc.transport.netty.internal.server;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http2.DecoratingHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;

/**
 * The {@code Alt-Svc} header (RFC 7838) on every response head a server sends over TCP, HTTP/2 and
 * HTTP/1.1 alike, when it serves HTTP/3 too: {@code h3=":port"; ma=seconds}, so that clients that speak
 * HTTP/3 (browsers, curl) move to it. Trailers carry none. Only in the pipeline of a server with HTTP/3.
 */
final class AltSvc {

  static final AsciiString ALT_SVC = AsciiString.cached("alt-svc");

  private AltSvc() {}

  /**
   * {@code encoder}, adding {@code value} to each response head it writes. The head is copied first: the
   * gRPC path shares constant header blocks between responses.
   */
  static Http2ConnectionEncoder http2(Http2ConnectionEncoder encoder, AsciiString value) {
    return new DecoratingHttp2ConnectionEncoder(encoder) {
      @Override
      public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
          boolean endStream, ChannelPromise promise) {
        return super.writeHeaders(ctx, streamId, advertised(headers, value), padding, endStream, promise);
      }

      @Override
      public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
          int streamDependency, short weight, boolean exclusive, int padding, boolean endStream,
          ChannelPromise promise) {
        return super.writeHeaders(ctx, streamId, advertised(headers, value), streamDependency, weight, exclusive,
            padding, endStream, promise);
      }
    };
  }

  private static Http2Headers advertised(Http2Headers headers, AsciiString value) {
    if (headers.status() == null) {
      return headers;
    }
    Http2Headers copy = new DefaultHttp2Headers(false, headers.size() + 1);
    copy.set(headers);
    copy.set(ALT_SVC, value);
    return copy;
  }

  /** The HTTP/1.1 side: adds {@code value} to each response passing towards the codec. */
  @ChannelHandler.Sharable
  static final class Http1 extends ChannelOutboundHandlerAdapter {

    static final String NAME = "alt-svc";

    private final AsciiString value;

    Http1(AsciiString value) {
      this.value = value;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
      if (msg instanceof HttpResponse response) {
        response.headers().set(ALT_SVC, value);
      }
      ctx.write(msg, promise);
    }
  }
}
