package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.CreateStreamCommand;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handler of one HTTP/1.1 client connection, behind Netty's {@code HttpClientCodec}: it writes
 * the one exchange's request from the commands of the connection's {@code WriteQueue}, and hands its
 * response to the stream as HTTP/2 would have brought it (a head, DATA, trailers), so that the
 * framings read it unchanged. Reading pauses while the reader has more than a window of the response
 * unread (HTTP/1.1's only flow control). Event loop only.
 */
final class Http1ClientHandler extends ChannelDuplexHandler {

  private static final Logger log = LoggerFactory.getLogger(Http1ClientHandler.class);

  private final Http1ClientConnection connection;
  /** Response bytes the reader may leave unread before reading pauses. */
  private final int maxPendingInbound;
  private ChannelHandlerContext context;

  /** The exchange in flight, or null between exchanges. */
  private Http1ClientStream current;
  /** A one-message request's head, held to be sent with its body and length; null otherwise. */
  private HttpRequest heldHead;
  private ChannelPromise heldHeadPromise;
  private boolean requestEnded;
  private boolean responseEnded;
  /** Whether the response's head said its body is empty: the decoder's empty end is not passed on. */
  private boolean emptyBody;
  /** Whether the request and the response both let the connection carry another exchange. */
  private boolean keepAlive;
  /** Response bytes handed to the stream and not yet read by the call. */
  private long pendingInbound;
  /** Exchanges started on this connection: past the first, it is a kept-alive one the server may have closed. */
  private int exchanges;

  Http1ClientHandler(Http1ClientConnection connection, int maxPendingInbound) {
    this.connection = connection;
    this.maxPendingInbound = maxPendingInbound;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    context = ctx;
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    Status status = Status.UNAVAILABLE.withDescription("Connection closed before the response ended");
    connection.markClosed(status.asException());
    if (current != null && !responseEnded) {
      failExchange(current.state().responseStarted() ? status
          : status.withDescription("Connection closed before the server answered"));
    }
    releaseHeld();
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    log.debug("Closing {}: {}", ctx.channel(), cause.toString());
    failExchange(Status.UNAVAILABLE.withDescription("Connection failed: " + cause).withCause(cause));
  }

  /** Every command this connection accepts; anything else is refused. */
  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof SendDataCommand) {
      sendData(ctx, (SendDataCommand) msg, promise);
    } else if (msg instanceof CreateStreamCommand) {
      startExchange(ctx, (CreateStreamCommand) msg, promise);
    } else if (msg instanceof CancelStreamCommand) {
      cancel((CancelStreamCommand) msg, promise);
    } else if (msg instanceof ForcefulCloseCommand) {
      Status status = ((ForcefulCloseCommand) msg).status();
      if (current != null) {
        current.state().close(status, new Metadata());
      }
      ctx.close(promise);
    } else {
      ReferenceCountUtil.release(msg);
      throw new UnsupportedOperationException("Not a command of an HTTP/1.1 connection: " + msg.getClass().getName());
    }
  }

  private void startExchange(ChannelHandlerContext ctx, CreateStreamCommand command, ChannelPromise promise) {
    Http1ClientStream stream = (Http1ClientStream) command.stream();
    if (stream.state().isClosed()) {
      promise.setSuccess();
      // Cancelled before it started: nothing was sent, the connection stays clean.
      connection.exchangeEnded();
      return;
    }
    if (current != null) {
      promise.setFailure(new IllegalStateException("An HTTP/1.1 connection carries one exchange at a time"));
      return;
    }
    current = stream;
    exchanges++;
    requestEnded = false;
    responseEnded = false;
    emptyBody = false;
    pendingInbound = 0;
    Http2Headers headers = command.headers();
    HttpMethod method = HttpMethod.valueOf(headers.method().toString());
    HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, headers.path().toString(), false);
    HttpHeaders out = request.headers();
    out.add(HttpHeaderNames.HOST, headers.authority());
    for (Map.Entry<CharSequence, CharSequence> header : headers) {
      if (header.getKey().length() > 0 && header.getKey().charAt(0) != ':') {
        out.add(header.getKey(), header.getValue());
      }
    }
    keepAlive = true;
    stream.state().streamCreated(ctx.alloc());
    if (HttpMethod.GET.equals(method)) {
      ctx.write(request, promise);
    } else if (stream.oneRequestMessage()) {
      heldHead = request;
      heldHeadPromise = promise;
    } else {
      HttpUtil.setTransferEncodingChunked(request, true);
      ctx.write(request, promise);
    }
  }

  private void sendData(ChannelHandlerContext ctx, SendDataCommand command, ChannelPromise promise) {
    Http1ClientStream stream = (Http1ClientStream) command.stream();
    if (stream != current || requestEnded) {
      // The exchange is over (cancelled, or answered and ended): what the call still sends goes nowhere.
      command.release();
      promise.setSuccess();
      return;
    }
    ByteBuf content = command.content();
    if (heldHead != null) {
      HttpUtil.setContentLength(heldHead, content.readableBytes());
      ctx.write(heldHead, heldHeadPromise);
      heldHead = null;
      heldHeadPromise = null;
    }
    if (command.endOfStream()) {
      requestEnded = true;
      ctx.write(new DefaultLastHttpContent(content), promise);
      if (responseEnded) {
        endExchange();
      }
    } else {
      ctx.write(new DefaultHttpContent(content), promise);
    }
  }

  /** A cancelled exchange: the connection closes, as HTTP/1.1 has no other way to end it. */
  private void cancel(CancelStreamCommand command, ChannelPromise promise) {
    Http1ClientStream stream = (Http1ClientStream) command.stream();
    stream.state().close(command.status(), new Metadata());
    promise.setSuccess();
    if (stream == current) {
      current = null;
      releaseHeld();
      connection.close();
    } else if (stream.id() < 0 && current == null) {
      // Cancelled before its head was queued (a GET waits for its message): nothing was sent.
      connection.exchangeEnded();
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof HttpObject)) {
      ReferenceCountUtil.release(msg);
      return;
    }
    HttpObject object = (HttpObject) msg;
    Http1ClientStream stream = current;
    if (object.decoderResult().isFailure()) {
      ReferenceCountUtil.release(msg);
      Throwable cause = object.decoderResult().cause();
      failExchange(cause instanceof PrematureChannelClosureException
          ? Status.UNAVAILABLE.withDescription("Server closed the connection mid-response").withCause(cause)
          : Status.INTERNAL.withDescription("Malformed HTTP/1.1 response: " + cause.getMessage()).withCause(cause));
      return;
    }
    if (stream == null || responseEnded) {
      ReferenceCountUtil.release(msg);
      log.debug("Closing {}: a response without a request", ctx.channel());
      failExchange(Status.INTERNAL.withDescription("Server sent a response without a request"));
      return;
    }
    if (msg instanceof HttpResponse) {
      headRead((HttpResponse) msg, stream);
    }
    if (msg instanceof HttpContent) {
      contentRead((HttpContent) msg, stream);
    }
  }

  private void headRead(HttpResponse response, Http1ClientStream stream) {
    int code = response.status().code();
    if (code >= 100 && code < 200) {
      // 100 Continue and the like: the response is still to come.
      return;
    }
    keepAlive = HttpUtil.isKeepAlive(response);
    emptyBody = HttpUtil.getContentLength(response, -1L) == 0;
    Http2Headers head = new DefaultHttp2Headers(false, response.headers().size() + 1);
    head.status(AsciiString.of(Integer.toString(code)));
    for (Map.Entry<String, String> header : response.headers()) {
      String name = header.getKey().toLowerCase(Locale.ROOT);
      if (!isConnectionHeader(name)) {
        head.add(AsciiString.of(name), header.getValue());
      }
    }
    // An empty body ends the response with its head, as an HTTP/2 server's HEADERS with END_STREAM.
    stream.state().headersRead(head, emptyBody);
  }

  private void contentRead(HttpContent content, Http1ClientStream stream) {
    boolean last = content instanceof LastHttpContent;
    ByteBuf data = content.content();
    if (emptyBody) {
      data.release();
      if (last) {
        responseEnded();
      }
      return;
    }
    pendingInbound += data.readableBytes();
    if (pendingInbound > maxPendingInbound) {
      context.channel().config().setAutoRead(false);
    }
    HttpHeaders trailers = last ? ((LastHttpContent) content).trailingHeaders() : null;
    boolean withTrailers = trailers != null && !trailers.isEmpty();
    if (last) {
      // The connection is free before the call hears its end, so that a call the caller makes next finds
      // it idle rather than opening another (the call's events run on another thread).
      responseEnded();
    }
    stream.state().dataRead(data, last && !withTrailers);
    if (withTrailers) {
      Http2Headers block = new DefaultHttp2Headers(false, trailers.size());
      for (Map.Entry<String, String> trailer : trailers) {
        block.add(AsciiString.of(trailer.getKey().toLowerCase(Locale.ROOT)), trailer.getValue());
      }
      stream.state().headersRead(block, true);
    }
  }

  private void responseEnded() {
    responseEnded = true;
    if (requestEnded) {
      endExchange();
    }
  }

  /**
   * Both the request and the response ended: the connection takes the next exchange if both sides keep
   * it alive, else it closes. The call itself may still be reading what it was handed.
   */
  private void endExchange() {
    current = null;
    context.channel().config().setAutoRead(true);
    if (keepAlive) {
      connection.exchangeEnded();
    } else {
      connection.close();
    }
  }

  /** The exchange fails with {@code status} and the connection closes: what it still holds is unusable. */
  private void failExchange(Status status) {
    Http1ClientStream stream = current;
    boolean stale = stream != null && staleConnection(stream);
    current = null;
    if (stream != null) {
      if (stale) {
        stream.state().closeUnprocessed(status);
      } else {
        stream.state().close(status, new Metadata());
      }
    }
    releaseHeld();
    connection.close();
  }

  /**
   * Whether a failure of {@code stream}'s exchange is most likely a kept-alive connection the server had
   * closed as the request went out: the connection carried an exchange before, and no byte of this one's
   * response came. As OkHttp and browsers do, the call then goes again (on a new connection), once, as
   * one the server never processed; the request is the client's to send again (the call keeps it).
   */
  boolean staleConnection(Http1ClientStream stream) {
    return exchanges > 1 && stream == current && !stream.state().responseStarted();
  }

  private void releaseHeld() {
    if (heldHead != null) {
      heldHeadPromise.setFailure(new IllegalStateException("The exchange ended before its request was sent"));
      heldHead = null;
      heldHeadPromise = null;
    }
  }

  /** {@code bytes} of the response were read by the call. */
  void returned(int bytes) {
    pendingInbound -= bytes;
  }

  /** Reading resumes once the call has read down to half the window it may leave unread. */
  void resumeIfDrained() {
    if (context != null && pendingInbound <= maxPendingInbound / 2 && !context.channel().config().isAutoRead()) {
      context.channel().config().setAutoRead(true);
    }
  }

  /** Headers of the connection, not the call: they stay out of the call's metadata. */
  private static boolean isConnectionHeader(String name) {
    return name.equals("connection") || name.equals("keep-alive") || name.equals("transfer-encoding")
        || name.equals("upgrade") || name.equals("proxy-connection");
  }

  /** For tests: whether reading is paused for a reader that has not caught up. */
  boolean readingPaused() {
    return context != null && !context.channel().config().isAutoRead();
  }

  @Override
  public String toString() {
    return "Http1ClientHandler{" + connection + '}';
  }
}
