package io.triplerpc.transport.http3.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.util.concurrent.Future;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.transport.netty.internal.client.AbstractClientStream;
import io.triplerpc.transport.netty.internal.client.ClientFraming;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import java.util.ArrayDeque;

/**
 * The client side of one call on one HTTP/3 request stream: what HTTP/3 adds to
 * {@link AbstractClientStream}'s lifecycle, whatever the protocol; the {@link ClientFraming} frames it
 * as on HTTP/2. The request goes out as a HEADERS frame, DATA frames and FIN; the response comes in as
 * HEADERS, DATA and trailing HEADERS frames, then FIN, and is handed to the framing in HTTP/2's terms
 * (a head that ends the stream is a trailers-only response, so the first HEADERS frame waits for
 * what follows it). Cancelling resets the stream ({@code H3_REQUEST_CANCELLED}).
 *
 * <p>Inbound flow control: the stream stops reading once more than a window of the response waits
 * unread by the call (QUIC's stream window then closes at the server), and reads again when the call
 * has read half of it. The calling thread queues commands on the connection's write queue; everything
 * else runs on the connection's event loop.
 */
final class Http3ClientStream extends AbstractClientStream {

  private final Http3ClientConnection connection;
  /** Response bytes the call may leave unread before the stream stops reading. */
  private final int window;
  private final TransportState state = new TransportState();

  Http3ClientStream(Http3ClientConnection connection, Http2Headers headers, int maxInboundMessageSize,
      ClientFraming framing, int window) {
    super(connection.writeQueue(), connection.eventLoop(), headers, maxInboundMessageSize, framing);
    this.connection = connection;
    this.window = window;
  }

  @Override
  protected TransportState state() {
    return state;
  }

  // StreamHandle: event loop.

  /** The QUIC stream id (ids this small fit an int), or -1 before the stream exists. */
  @Override
  public int id() {
    return state.channel == null ? -1 : (int) state.channel.streamId();
  }

  @Override
  public void headersWritten() {
    state.headersWritten = true;
  }

  @Override
  public void writeFailed(Throwable cause) {
    Status status = Status.UNAVAILABLE.withDescription("HTTP/3 stream failed: " + cause).withCause(cause);
    if (!state.headersWritten) {
      state.closeUnprocessed(status);
    } else {
      state.close(status, new Metadata());
    }
    state.reset();
  }

  @Override
  public void neverSent(Throwable cause) {
    state.closeUnprocessed(Status.UNAVAILABLE
        .withDescription("HTTP/3 connection failed before the call was sent: " + cause).withCause(cause));
  }

  // The connection's commands, on the event loop.

  /** Opens the request stream on {@code quic} and sends {@code head}; {@code promise} is the head's. */
  void open(QuicChannel quic, Http2Headers head, ChannelPromise promise) {
    if (state.isClosed()) {
      // Cancelled before it started: nothing goes out.
      promise.setSuccess();
      return;
    }
    state.streamCreated(quic.alloc());
    connection.whenStreamAllowed(() -> createRequestStream(quic, head, promise));
  }

  /**
   * Creates the request stream; one the server's stream limit refuses waits for its MAX_STREAMS, as a call waits
   * for a stream over HTTP/2, instead of failing. Event loop.
   */
  private void createRequestStream(QuicChannel quic, Http2Headers head, ChannelPromise promise) {
    if (state.isClosed()) {
      // Cancelled while it waited for a stream.
      promise.setSuccess();
      state.dropPending();
      return;
    }
    Future<QuicStreamChannel> created = Http3.newRequestStream(quic, state.reader);
    created.addListener(done -> {
      if (!done.isSuccess()) {
        if (connection.waitForStream(done.cause(), () -> createRequestStream(quic, head, promise))) {
          return;
        }
        state.dropPending();
        promise.setFailure(done.cause());
        return;
      }
      state.channelOpened((QuicStreamChannel) done.getNow(), head, promise);
    });
  }

  /** Sends the command's DATA (FIN too when it ends the request). */
  void send(SendDataCommand command, ChannelPromise promise) {
    ByteBuf data = command.content();
    if (state.channel == null && !state.isClosed() && !state.resetSent && !state.openFailed) {
      state.pending.add(() -> send(command, promise));
      return;
    }
    if (state.channel == null || state.resetSent || state.outputShut) {
      // The stream is over (cancelled, failed, answered and reset): what the call still sends goes nowhere.
      command.release();
      promise.setSuccess();
      return;
    }
    QuicStreamChannel channel = state.channel;
    ChannelFuture written;
    if (data.isReadable()) {
      written = completes(channel.write(new DefaultHttp3DataFrame(Http3Exchange.contiguous(channel.alloc(), data))),
          promise);
    } else {
      data.release();
      promise.setSuccess();
      written = channel.newSucceededFuture();
    }
    if (command.endOfStream()) {
      state.outputShut = true;
      written.addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
    }
    channel.flush();
  }

  /**
   * {@code written}, on the stream's channel, completes the command's {@code promise}, on the socket's: a
   * promise belongs to the channel it was made for.
   */
  private static ChannelFuture completes(ChannelFuture written, ChannelPromise promise) {
    written.addListener(done -> {
      if (done.isSuccess()) {
        promise.trySuccess();
      } else {
        promise.tryFailure(done.cause());
      }
    });
    return written;
  }

  /** Ends the call with {@code status} and resets the stream. */
  void cancel(Status status, ChannelPromise promise) {
    state.close(status, new Metadata());
    state.reset();
    promise.setSuccess();
  }

  /** The HTTP/3 side of the stream; touched on the event loop only. */
  final class TransportState extends State {

    /** The request stream, once QUIC opened it; null before. */
    private QuicStreamChannel channel;
    /** Commands that came before the stream was open, run once it is. */
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>(2);
    private final Reader reader = new Reader();
    private boolean headersWritten;
    private boolean resetSent;
    /** The stream was never created (or the call ended first): what the call sends is released, not held. */
    private boolean openFailed;
    private boolean outputShut;
    /** Response bytes read and not yet read by the call. */
    private long unread;
    /** The response's first HEADERS frame, held until what follows says whether it ends the response. */
    private Http2Headers heldHead;
    private boolean headRead;
    private boolean trailersRead;
    private boolean finRead;

    private void channelOpened(QuicStreamChannel opened, Http2Headers head, ChannelPromise promise) {
      channel = opened;
      connection.streamOpened(this);
      if (isClosed()) {
        // Cancelled while QUIC opened it.
        promise.setSuccess();
        reset();
        dropPending();
        return;
      }
      completes(opened.writeAndFlush(new DefaultHttp3HeadersFrame(Http3Exchange.toHttp3(head))), promise);
      Runnable next;
      while ((next = pending.poll()) != null) {
        next.run();
      }
    }

    /** Releases what waited for a stream that will not carry it, and what comes after. */
    void dropPending() {
      openFailed = true;
      Runnable next;
      while ((next = pending.poll()) != null) {
        next.run();
      }
    }

    /** Resets the stream both ways, once; before it exists, it will be reset as it opens. */
    void reset() {
      if (channel != null && !resetSent && channel.isActive()) {
        resetSent = true;
        channel.shutdown(Http3ErrorCode.H3_REQUEST_CANCELLED.code());
      }
    }

    @Override
    protected void returnBytes(int bytes) {
      unread -= bytes;
    }

    @Override
    protected void flushReturned() {
      if (channel != null && unread < window / 2 && !channel.config().isAutoRead()) {
        channel.config().setAutoRead(true);
      }
    }

    /** The server's GOAWAY named a stream at or below this one's id: it will not be served. */
    private boolean rejectedByGoAway() {
      long goAway = connection.goAwayId();
      return channel != null && goAway >= 0 && channel.streamId() >= goAway;
    }

    private void deliverHeldHead(boolean endOfResponse) {
      Http2Headers head = heldHead;
      heldHead = null;
      headersRead(head, endOfResponse);
      if (endOfResponse) {
        trailersRead = true;
      }
    }

    /** Reads the response stream's frames. */
    private final class Reader extends Http3RequestStreamInboundHandler {

      @Override
      protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
        Http2Headers headers = Http3Exchange.toHttp2(frame.headers());
        if (!headRead) {
          if (headers.status() != null && headers.status().length() > 0 && headers.status().charAt(0) == '1') {
            // An informational response (103 Early Hints, say): the real one follows.
            return;
          }
          headRead = true;
          heldHead = headers;
          return;
        }
        if (heldHead != null) {
          deliverHeldHead(false);
        }
        // HTTP/3 trailers are the response's last frame (RFC 9114 4.1).
        trailersRead = true;
        headersRead(headers, true);
      }

      @Override
      protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
        if (heldHead != null) {
          deliverHeldHead(false);
        }
        ByteBuf data = frame.content();
        unread += data.readableBytes();
        if (unread > window && ctx.channel().config().isAutoRead()) {
          ctx.channel().config().setAutoRead(false);
        }
        dataRead(data, false);
      }

      @Override
      protected void channelInputClosed(ChannelHandlerContext ctx) {
        finRead = true;
        if (heldHead != null) {
          // A head that ends the response: trailers-only.
          deliverHeldHead(true);
        } else if (!trailersRead) {
          dataRead(Unpooled.EMPTY_BUFFER, true);
        }
      }

      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        streamEnded(Status.UNAVAILABLE.withDescription("HTTP/3 stream failed: " + cause).withCause(cause));
        ctx.close();
      }

      @Override
      public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        streamEnded(Status.UNAVAILABLE.withDescription("HTTP/3 stream closed before the call ended"));
        connection.streamClosed(TransportState.this);
        super.channelInactive(ctx);
      }

      /**
       * The stream ended or failed: before the response ended, the call fails with {@code status}; a
       * stream the server's GOAWAY left unserved may go again elsewhere. After the response's end (FIN,
       * trailers) the end is already on its way to the call, through the deframer.
       */
      private void streamEnded(Status status) {
        if (isClosed() || finRead || trailersRead) {
          return;
        }
        heldHead = null;
        if (!headRead && rejectedByGoAway()) {
          Status goAway = Status.UNAVAILABLE.withDescription("The server's GOAWAY left this HTTP/3 stream unprocessed");
          closeUnprocessed(goAway);
          return;
        }
        close(status, new Metadata());
      }
    }
  }
}
