package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.wire.MessageDeframer;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.OutboundReadiness;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.CreateStreamCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import io.triplerpc.transport.netty.internal.write.StreamHandle;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * What a client call's stream does whatever carries it, an HTTP/2 stream ({@link NettyClientStream}),
 * an HTTP/1.1 exchange ({@link Http1ClientStream}) or an HTTP/3 request stream (in
 * {@code triple-transport-http3}, hence public): the calling thread queues the request as commands
 * on the connection's write queue (head, messages, end, cancel); on the event loop, {@link State} hands
 * what the {@link ClientFraming} makes of the response to the listener, in order and as the reader asks.
 * The subclasses add what their wire needs: stream ids and flow control, or one exchange per connection.
 */
public abstract class AbstractClientStream implements ClientStream, StreamHandle {

  protected final WriteQueue writeQueue;
  protected final EventLoop eventLoop;
  /** The request head; the framing may still rewrite it until it is queued. */
  protected final Http2Headers headers;
  private final int maxInboundMessageSize;
  /** How the call is framed: gRPC, gRPC-Web, Connect unary or streaming; chosen once, for the stream's life. */
  protected final ClientFraming framing;
  /** Whether the head goes with the one message (a Connect GET carries it in the URL), not at start. */
  private final boolean headWithMessage;
  protected final OutboundReadiness readiness = new OutboundReadiness();

  private static final AtomicIntegerFieldUpdater<AbstractClientStream> PENDING_REQUESTS =
      AtomicIntegerFieldUpdater.newUpdater(AbstractClientStream.class, "pendingRequests");

  /** Messages requested off the event loop and not yet handed to it. */
  private volatile int pendingRequests;
  private final Runnable requestTask = this::takePendingRequests;

  // Caller thread, before start.
  private int initialRequest;
  private boolean started;

  protected AbstractClientStream(WriteQueue writeQueue, EventLoop eventLoop, Http2Headers headers, int maxInboundMessageSize,
      ClientFraming framing) {
    this.writeQueue = writeQueue;
    this.eventLoop = eventLoop;
    this.headers = headers;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.framing = framing;
    this.headWithMessage = framing.sendsMessageInHead();
  }

  /** The event loop's part of the stream; set by start (caller thread), read on the event loop after the create command. */
  protected abstract State state();

  @Override
  public void start(ClientStreamListener listener, boolean headersNow) {
    started = true;
    State state = state();
    state.listener = listener;
    state.requested = initialRequest;
    if (!headWithMessage) {
      writeQueue.enqueue(new CreateStreamCommand(this, headers), headersNow);
    }
  }

  @Override
  public void request(int count) {
    if (!started) {
      initialRequest += count;
      return;
    }
    if (eventLoop.inEventLoop()) {
      state().request(count);
    } else if (PENDING_REQUESTS.getAndAdd(this, count) == 0) {
      // The first request since the last hand-over schedules it; later ones ride along.
      eventLoop.execute(requestTask);
    }
  }

  /** Moves the requests made off the event loop to the deframer, all at once. Event loop. */
  private void takePendingRequests() {
    int count = PENDING_REQUESTS.getAndSet(this, 0);
    if (count > 0) {
      state().request(count);
    }
  }

  @Override
  public void writeMessage(ByteBuf framed, boolean endOfStream) {
    ByteBuf body = framing.requestBody(framed, headers);
    if (headWithMessage) {
      writeQueue.enqueue(new CreateStreamCommand(this, headers), false);
    }
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

  @Override
  public void onDataSent(int bytes) {
    if (readiness.sent(bytes)) {
      state().notifyReady();
    }
  }

  /**
   * Everything the event loop owns of the response; touched on the event loop only. The framing reads
   * the response; this state delivers what it makes of it, in order and as the reader asks.
   */
  public abstract class State implements MessageDeframer.Sink, ClientFraming.CallEvents {

    ClientStreamListener listener;
    MessageDeframer deframer;
    int requested;
    boolean headersReceived;
    /** Whether the whole body, end frame included, went to the deframer (gRPC-Web, Connect streaming). */
    boolean bodyEnded;
    /** How the server ended the call, delivered once every message before it was delivered. */
    Status trailerStatus;
    private Metadata trailers;
    private boolean closed;
    /** A message was delivered since the last {@link #endDelivery}. */
    private boolean messagesPending;

    /** {@code bytes} of the response went to the reader: the wire may bring more. */
    protected abstract void returnBytes(int bytes);

    /** Tells the wire now of the bytes returned so far (a WINDOW_UPDATE, say), if it is time. */
    protected abstract void flushReturned();

    /** The stream is on its connection: the response may come, and is deframed with {@code alloc}'s buffers. */
    public void streamCreated(ByteBufAllocator alloc) {
      this.deframer = new MessageDeframer(this, maxInboundMessageSize, alloc, framing.endFrameFlag());
      if (requested > 0) {
        deframer.request(requested);
        endDelivery();
      }
      listener.onReady();
    }

    public boolean isClosed() {
      return closed;
    }

    void request(int count) {
      if (deframer == null) {
        requested += count;
      } else if (!closed) {
        deframer.request(count);
        endDelivery();
        flushReturned();
      }
    }

    void notifyReady() {
      if (!closed && listener != null) {
        listener.onReady();
      }
    }

    public void headersRead(Http2Headers headers, boolean endOfStream) {
      if (closed) {
        return;
      }
      boolean first = !headersReceived;
      headersReceived = true;
      framing.headersRead(headers, first, endOfStream, this);
    }

    /** Body bytes arrived; they are returned to the wire as messages are delivered. */
    public void dataRead(ByteBuf data, boolean endOfStream) {
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

    /** Ends the exchange on the wire (RST_STREAM; on HTTP/1.1 the connection closes) and closes the call with {@code status}. */
    public void cancelWithStatus(Status status) {
      close(status, new Metadata());
      writeQueue.enqueue(new CancelStreamCommand(AbstractClientStream.this, status), true);
    }

    /**
     * The server never processed the stream (see {@link ClientStreamListener#onUnprocessed}); once
     * the response started, it did, and this is an ordinary close.
     */
    public void closeUnprocessed(Status status) {
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
        // may wait for the reader's demand after the stream has closed.
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
      returnBytes(bytes);
      flushReturned();
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
      returnBytes(bytes);
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
