package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.StreamBufferingEncoder;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.wire.MessageDeframer;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.InboundWindow;
import io.triplerpc.transport.netty.internal.OutboundReadiness;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.CreateStreamCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import io.triplerpc.transport.netty.internal.write.StreamHandle;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The client side of one call on one HTTP/2 stream: its lifecycle (creation, flow control, demand,
 * cancellation, close), whatever the protocol; its {@link ClientFraming} knows how the protocol frames
 * it. The calling thread queues commands; the event loop owns everything in {@link TransportState}.
 */
final class NettyClientStream implements ClientStream, StreamHandle {

  /** The connection the stream is on. */
  private final ClientConnection connection;
  private final WriteQueue writeQueue;
  private final EventLoop eventLoop;
  private final Http2Headers headers;
  private final int maxInboundMessageSize;
  /** How the call is framed: gRPC, gRPC-Web, Connect unary or streaming; chosen once, for the stream's life. */
  private final ClientFraming framing;
  private final OutboundReadiness readiness = new OutboundReadiness();
  /** When the call's deadline passes on the event loop's ticker; meaningless without {@link #hasDeadline}. */
  private final long deadlineTicks;
  private final boolean hasDeadline;

  private static final AtomicIntegerFieldUpdater<NettyClientStream> PENDING_REQUESTS =
      AtomicIntegerFieldUpdater.newUpdater(NettyClientStream.class, "pendingRequests");

  /** Messages requested off the event loop and not yet handed to it. */
  private volatile int pendingRequests;
  private final Runnable requestTask = this::takePendingRequests;

  // Caller thread, before start.
  private int initialRequest;
  private boolean started;

  /** This stream's part of its connection's backlog; event loop only. */
  private long backlogBytes;
  /** Whether the stream closed and its part left the backlog; event loop only. */
  private boolean backlogSettled;

  /** Set by start (caller thread), read on the event loop after the create command. */
  private final TransportState state = new TransportState();

  /** @param timeoutNanos the deadline {@code headers} announce, 0 for none */
  NettyClientStream(ClientConnection connection, Http2Headers headers, int maxInboundMessageSize,
      ClientFraming framing, long timeoutNanos) {
    this.connection = connection;
    this.writeQueue = connection.writeQueue();
    this.eventLoop = connection.eventLoop();
    this.headers = headers;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.framing = framing;
    this.hasDeadline = timeoutNanos > 0;
    this.deadlineTicks = hasDeadline ? eventLoop.ticker().nanoTime() + timeoutNanos : 0;
  }

  /** Whether the request headers announce a deadline that {@link #announceRemainingTime} can bring up to date. */
  boolean hasDeadline() {
    return hasDeadline;
  }

  /**
   * Rewrites the deadline the request headers announce to the time left now: for a stream that waited
   * for a MAX_CONCURRENT_STREAMS slot, the one computed when the call started would tell the server it
   * has longer than the caller will wait (and its own calls would inherit that). Event loop, just before
   * the headers are encoded.
   */
  void announceRemainingTime() {
    framing.announceTimeout(headers, Math.max(1, deadlineTicks - eventLoop.ticker().nanoTime()));
  }

  @Override
  public void start(ClientStreamListener listener, boolean headersNow) {
    started = true;
    state.listener = listener;
    state.requested = initialRequest;
    writeQueue.enqueue(new CreateStreamCommand(this, headers), headersNow);
  }

  @Override
  public void request(int count) {
    if (!started) {
      initialRequest += count;
      return;
    }
    if (eventLoop.inEventLoop()) {
      state.request(count);
    } else if (PENDING_REQUESTS.getAndAdd(this, count) == 0) {
      // The first request since the last hand-over schedules it; later ones ride along.
      eventLoop.execute(requestTask);
    }
  }

  /** Moves the requests made off the event loop to the deframer, all at once. Event loop. */
  private void takePendingRequests() {
    int count = PENDING_REQUESTS.getAndSet(this, 0);
    if (count > 0) {
      state.request(count);
    }
  }

  @Override
  public void writeMessage(ByteBuf framed, boolean endOfStream) {
    ByteBuf body = framing.requestBody(framed);
    readiness.queued(body.readableBytes());
    writeQueue.enqueue(new SendDataCommand(this, body, endOfStream), true);
  }

  @Override
  public void halfClose() {
    writeQueue.enqueue(new SendDataCommand(this, Unpooled.EMPTY_BUFFER, true), true);
  }

  @Override
  public void cancel(Status status) {
    writeQueue.enqueue(new CancelStreamCommand(this, status), true);
  }

  @Override
  public boolean isReady() {
    return readiness.isReady();
  }

  // StreamHandle: event loop.

  @Override
  public int id() {
    return state.id;
  }

  /** {@code bytes} of this stream's messages went to the encoder. Event loop, once created. */
  void dataQueued(int bytes) {
    if (!backlogSettled) {
      backlogBytes += bytes;
      state.handler.backlog().queued(bytes);
    }
  }

  /** The HTTP/2 stream closed: what of it the encoder still held leaves the backlog. Event loop. */
  void settleBacklog() {
    if (!backlogSettled && state.handler != null) {
      backlogSettled = true;
      state.handler.backlog().dropped(backlogBytes);
      backlogBytes = 0;
    }
  }

  @Override
  public void onDataSent(int bytes) {
    if (!backlogSettled && state.handler != null) {
      backlogBytes -= bytes;
      state.handler.backlog().sent(bytes);
    }
    if (readiness.sent(bytes)) {
      state.notifyReady();
    }
  }

  @Override
  public void writeFailed(Throwable cause) {
    if (cause instanceof IOException) {
      // The socket failed (a reset the read side has not reported yet, say; Netty fails the writes
      // before it closes the channel): no new call may pick this connection, so that this one, going
      // again, takes a new one.
      connection.markGone(cause);
    }
    // A write the server's GOAWAY stopped (a stream still waiting for its SETTINGS, say) fails for the
    // reason that GOAWAY gave; such a stream never left this client.
    Status goAway = state.handler == null ? null : state.handler.goAwayError();
    Status status = goAway != null ? goAway
        : Status.UNAVAILABLE.withDescription("Connection failed: " + cause).withCause(cause);
    if (cause instanceof StreamBufferingEncoder.Http2GoAwayException || !state.headersWritten) {
      // Its HEADERS never reached the socket whole (a connection reset the client had not seen yet,
      // say): the server cannot have processed it, so the call may go again on another connection.
      state.closeUnprocessed(status);
    } else {
      state.close(status, new Metadata());
    }
  }

  @Override
  public void headersWritten() {
    state.headersWritten = true;
  }

  /** The stream never left this client: the connection was going away when its turn came. Event loop. */
  void notSent(Status status) {
    state.closeUnprocessed(status);
  }

  @Override
  public void neverSent(Throwable cause) {
    Status goAway = state.handler == null ? null : state.handler.goAwayError();
    state.closeUnprocessed(goAway != null ? goAway
        : Status.UNAVAILABLE.withDescription("Connection failed before the call was sent: " + cause).withCause(cause));
  }

  TransportState state() {
    return state;
  }

  /**
   * Everything the event loop owns; touched on the event loop only. The framing reads the response;
   * this state delivers what it makes of it, in order and as the reader asks.
   */
  final class TransportState implements MessageDeframer.Sink, ClientFraming.CallEvents {

    private ClientStreamListener listener;
    private int id = -1;
    private InboundWindow window;
    private MessageDeframer deframer;
    private int requested;
    private boolean headersReceived;
    /** Whether the stream's HEADERS were written to the socket whole. */
    private boolean headersWritten;
    /** The handler of the stream's connection, once created; it knows why the server ended it. */
    private NettyClientHandler handler;
    /** Whether the whole body, end frame included, went to the deframer (gRPC-Web, Connect streaming). */
    private boolean bodyEnded;
    /** How the server ended the call, delivered once every message before it was delivered. */
    private Status trailerStatus;
    private Metadata trailers;
    private boolean closed;
    /** A message was delivered since the last {@link #endDelivery}. */
    private boolean messagesPending;

    /** The create command ran: the stream has its id, on the connection {@code handler} runs. */
    void created(int id, Http2LocalFlowController flowController, Channel channel, NettyClientHandler handler) {
      this.id = id;
      this.handler = handler;
      this.window = new InboundWindow(flowController, channel);
      this.deframer = new MessageDeframer(this, maxInboundMessageSize, channel.alloc(), framing.endFrameFlag());
      if (requested > 0) {
        deframer.request(requested);
        endDelivery();
      }
      listener.onReady();
    }

    /** The HTTP/2 stream exists (at once, or when a MAX_CONCURRENT_STREAMS slot freed). */
    void attach(Http2Stream stream) {
      window.attach(stream);
    }

    boolean isClosed() {
      return closed;
    }

    void request(int count) {
      if (deframer == null) {
        requested += count;
      } else if (!closed) {
        deframer.request(count);
        endDelivery();
        window.flushUpdate();
      }
    }

    void notifyReady() {
      if (!closed && listener != null) {
        listener.onReady();
      }
    }

    void headersRead(Http2Headers headers, boolean endOfStream) {
      if (closed) {
        return;
      }
      boolean first = !headersReceived;
      headersReceived = true;
      framing.headersRead(headers, first, endOfStream, this);
    }

    /** DATA arrived; the bytes are acknowledged to flow control as messages are delivered. */
    void dataRead(ByteBuf data, boolean endOfStream) {
      if (closed || deframer == null) {
        data.release();
        return;
      }
      if (!headersReceived) {
        data.release();
        cancelWithStatus(Status.INTERNAL.withDescription("Server sent DATA before response headers"));
        return;
      }
      framing.dataRead(data, endOfStream, this);
    }

    /**
     * The HTTP/2 stream closed. After the trailers that is normal (messages before them may still be
     * on their way to the reader); before them, the connection went away, for {@code goAwayError} if
     * the server said why (else null).
     */
    void http2StreamClosed(Status goAwayError) {
      if (trailerStatus == null && !headersReceived && unprocessedByGoAway()) {
        closeUnprocessed(goAwayError != null ? goAwayError
            : Status.UNAVAILABLE.withDescription("The server's GOAWAY left this stream unprocessed"));
        return;
      }
      if (trailerStatus == null && !bodyEnded) {
        close(goAwayError != null ? goAwayError
            : Status.UNAVAILABLE.withDescription("HTTP/2 stream closed before the call ended"), new Metadata());
      }
    }

    /**
     * RST_STREAM from the server. A server that sent GOAWAY with an error and then cancels its streams
     * (grpc-java does so) cancels them for that error: the call reports it, not a bare CANCELLED.
     */
    void resetRead(long errorCode, Status goAwayError) {
      if (closed) {
        return;
      }
      Status status;
      if (goAwayError != null && errorCode == Http2Error.CANCEL.code()) {
        status = goAwayError;
      } else if (errorCode == Http2Error.CANCEL.code()) {
        status = Status.CANCELLED.withDescription("Server cancelled the stream (RST_STREAM CANCEL)");
      } else if (errorCode == Http2Error.REFUSED_STREAM.code()) {
        // RFC 9113 8.7: the server did nothing with it.
        closeUnprocessed(Status.UNAVAILABLE.withDescription("Server refused the stream (RST_STREAM REFUSED_STREAM)"));
        return;
      } else {
        Http2Error error = Http2Error.valueOf(errorCode);
        status = Status.INTERNAL.withDescription(
            "Server reset the stream: RST_STREAM " + (error != null ? error : "code " + errorCode));
      }
      close(status, new Metadata());
    }

    /** Resets the stream and closes the call with {@code status}. */
    private void cancelWithStatus(Status status) {
      close(status, new Metadata());
      writeQueue.enqueue(new CancelStreamCommand(NettyClientStream.this, status), true);
    }

    /** Whether a GOAWAY from the server named a last stream before this one. */
    private boolean unprocessedByGoAway() {
      return handler != null && id > 0 && handler.connection().goAwayReceived()
          && id > handler.connection().local().lastStreamKnownByPeer();
    }

    /**
     * The server never processed the stream (see {@link ClientStreamListener#onUnprocessed}); once
     * the response started, it did, and this is an ordinary close.
     */
    void closeUnprocessed(Status status) {
      if (closed) {
        return;
      }
      if (headersReceived) {
        close(status, new Metadata());
        return;
      }
      closed = true;
      releaseInbound();
      if (listener != null) {
        listener.onUnprocessed(status);
      }
    }

    @Override
    public void close(Status status, Metadata trailers) {
      if (closed) {
        return;
      }
      closed = true;
      releaseInbound();
      if (listener != null) {
        listener.onClose(status, trailers);
      }
    }

    /** The call is over: what the deframer and the framing hold goes. */
    private void releaseInbound() {
      if (deframer != null) {
        deframer.close();
      }
      framing.release();
    }

    /** After every call into the deframer: the messages it delivered go over as one batch. */
    private void endDelivery() {
      if (messagesPending) {
        messagesPending = false;
        listener.onMessagesDelivered();
      }
    }

    // ClientFraming.CallEvents: what the framing makes of the response.

    @Override
    public void headers(Metadata headers, MessageEncoding responseEncoding) {
      listener.onHeaders(headers, responseEncoding);
    }

    @Override
    public void framed(ByteBuf data, boolean endOfBody) {
      if (endOfBody) {
        // The end is in the body: it comes out of the deframer after the messages before it, which
        // may wait for the reader's demand after the HTTP/2 stream has closed.
        bodyEnded = true;
      }
      deframer.deframe(data, endOfBody);
      endDelivery();
    }

    @Override
    public void message(ByteBuf payload, boolean compressed) {
      onMessage(payload, compressed);
    }

    @Override
    public void consumed(int bytes) {
      window.consumed(bytes);
      window.flushUpdate();
    }

    @Override
    public void trailers(Status status, Metadata trailers) {
      trailerStatus = status;
      this.trailers = trailers;
      if (deframer == null) {
        close(status, trailers);
        return;
      }
      deframer.deframe(Unpooled.EMPTY_BUFFER, true);
      endDelivery();
    }

    @Override
    public void end(Status status, Metadata trailers) {
      trailerStatus = status;
      this.trailers = trailers;
      endDelivery();
      close(status, trailers);
    }

    @Override
    public void fail(Status status) {
      if (closed) {
        return;
      }
      endDelivery();
      cancelWithStatus(status);
    }

    // MessageDeframer.Sink: what the deframer makes of the body.

    @Override
    public void onMessage(ByteBuf payload, boolean compressed) {
      messagesPending = true;
      listener.onMessage(payload, compressed);
    }

    @Override
    public void onBytesConsumed(int bytes) {
      window.consumed(bytes);
    }

    @Override
    public void onEndOfStream() {
      if (trailerStatus == null) {
        framing.endedWithoutTrailers(this);
        return;
      }
      close(trailerStatus, trailers);
    }

    @Override
    public void onEndFrame(ByteBuf payload, boolean compressed) {
      framing.endFrameRead(payload, compressed, this);
    }

    @Override
    public void onDeframeError(Status status) {
      cancelWithStatus(status);
    }
  }
}
