package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageDeframer;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import io.triplerpc.transport.netty.internal.InboundWindow;
import io.triplerpc.transport.netty.internal.OutboundBacklog;
import io.triplerpc.transport.netty.internal.OutboundReadiness;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import io.triplerpc.transport.netty.internal.write.SendHeadersCommand;
import io.triplerpc.transport.netty.internal.write.SendResponseCommand;
import io.triplerpc.transport.netty.internal.write.StreamHandle;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The server side of one gRPC call on one HTTP/2 stream. Service threads queue commands; the event
 * loop owns everything in {@link TransportState}.
 */
final class NettyServerStream extends AbstractServerStream implements StreamHandle {

  private static final AsciiString ACCEPT_ENCODING = AsciiString.cached(MessageEncoding.ACCEPT_ENCODING);
  // Most calls answer with the same header blocks: protobuf, no response encoding, no metadata, and
  // OK. These are built once and shared by every call of every connection; nothing writes to a block
  // once it is queued (Netty's encoder only reads it), so they are never changed.
  private static final Http2Headers PLAIN_GRPC_HEADERS = responseHeaders(GrpcHeaders.APPLICATION_GRPC, null, 0);
  private static final Http2Headers OK_TRAILERS = new DefaultHttp2Headers(false, 1)
      .set(GrpcHeaders.GRPC_STATUS, GrpcHttp2Headers.statusValue(Status.OK));
  private static final Status NO_ROOM = Status.RESOURCE_EXHAUSTED.withDescription(
      "The server holds too many responses its clients do not read, and this connection's client has not "
      + "taken those it was sent");

  private final int id;
  private final WriteQueue writeQueue;
  private final io.netty.channel.Channel channel;
  private final PeerInfo peer;
  private final TransportState state;

  /** The response content type: the request's gRPC one. */
  private final AsciiString contentType;
  /** Whether response headers were queued; touched by the sending thread only. */
  private boolean headersQueued;
  /** The size of the message {@link #admit} reserved room for, not yet written; the sending thread only. */
  private int admitted;

  NettyServerStream(
      int id,
      Http2Stream http2Stream,
      Http2LocalFlowController flowController,
      WriteQueue writeQueue,
      io.netty.channel.Channel channel,
      PeerInfo peer,
      int maxInboundMessageSize,
      OutboundBacklog backlog,
      ServerBacklog.Share serverBacklog,
      java.util.function.BooleanSupplier holdBack,
      AsciiString contentType) {
    super(channel.eventLoop(), channel.alloc(), holdBack);
    this.id = id;
    this.contentType = contentType;
    this.backlog = backlog;
    this.serverBacklog = serverBacklog;
    this.writeQueue = writeQueue;
    this.channel = channel;
    this.peer = peer;
    this.state = new TransportState(http2Stream, flowController, maxInboundMessageSize);
  }

  /** The connection's bytes not yet taken by the client. */
  private final OutboundBacklog backlog;
  /** The connection's part of the server's; large messages are counted in it as soon as they are made. */
  private final ServerBacklog.Share serverBacklog;
  /** This stream's part of {@link #backlog}; event loop only. */
  private long backlogBytes;
  /** Whether the stream closed and its part left the backlog; event loop only. */
  private boolean backlogSettled;

  private static final AtomicReferenceFieldUpdater<NettyServerStream, ByteBuf> HELD_MESSAGE =
      AtomicReferenceFieldUpdater.newUpdater(NettyServerStream.class, ByteBuf.class, "heldMessage");
  /** In {@link #heldMessage} once the call ended under it: nothing may be held any more. */
  private static final ByteBuf DISCARDED = Unpooled.unreleasableBuffer(Unpooled.EMPTY_BUFFER);

  // A single-message response's headers and message wait here for its close, to be queued with the
  // trailers as one command. The headers are the sending thread's alone; the message may also be
  // taken by the event loop when the call ends first (a client reset), so that it is not lost.
  private Http2Headers heldHeaders;
  private volatile ByteBuf heldMessage;

  TransportState state() {
    return state;
  }

  /** The connection this stream is on. */
  io.netty.channel.Channel channel() {
    return channel;
  }

  /** The response content type. */
  AsciiString contentType() {
    return contentType;
  }

  @Override
  public void request(int count) {
    if (eventLoop.inEventLoop()) {
      state.request(count);
    } else {
      eventLoop.execute(() -> state.request(count));
    }
  }

  @Override
  public void writeHeaders(Metadata metadata, MessageEncoding responseEncoding, boolean flush) {
    headersQueued = true;
    Http2Headers headers;
    if (contentType == GrpcHeaders.APPLICATION_GRPC && responseEncoding == null && metadata.isEmpty()) {
      headers = PLAIN_GRPC_HEADERS;
    } else {
      headers = responseHeaders(contentType, responseEncoding, metadata.size());
      GrpcHttp2Headers.addMetadata(headers, metadata);
    }
    if (!flush && heldHeaders == null && heldMessage == null) {
      heldHeaders = headers;
      return;
    }
    releaseHeld();
    writeQueue.enqueue(new SendHeadersCommand(this, headers, false), flush);
  }

  private static Http2Headers responseHeaders(AsciiString contentType, MessageEncoding encoding, int metadataSize) {
    Http2Headers headers = new DefaultHttp2Headers(false, 4 + metadataSize).status(GrpcHeaders.STATUS_200);
    headers.add(GrpcHeaders.CONTENT_TYPE, contentType);
    if (encoding != null) {
      headers.add(GrpcHeaders.GRPC_ENCODING, encoding.wireName());
    }
    headers.add(GrpcHeaders.GRPC_ACCEPT_ENCODING, ACCEPT_ENCODING);
    return headers;
  }

  @Override
  public boolean admit(int framedSize) {
    if (framedSize < ServerBacklog.RESERVED_FROM) {
      return true;
    }
    if (!serverBacklog.reserve(framedSize)) {
      cancel(NO_ROOM);
      return false;
    }
    admitted = framedSize;
    return true;
  }

  @Override
  public void withdraw(int framedSize) {
    if (admitted == framedSize && framedSize != 0) {
      admitted = 0;
      serverBacklog.unreserve(framedSize);
    }
  }

  @Override
  public void writeMessage(ByteBuf framed, boolean flush) {
    int size = framed.readableBytes();
    if (size >= ServerBacklog.RESERVED_FROM) {
      int ahead = admitted;
      admitted = 0;
      if (ahead != size) {
        if (ahead != 0) {
          serverBacklog.unreserve(ahead);
        }
        if (!serverBacklog.reserve(size)) {
          framed.release();
          cancel(NO_ROOM);
          return;
        }
      }
    }
    readiness.queued(size);
    if (!flush && HELD_MESSAGE.compareAndSet(this, null, framed)) {
      return;
    }
    releaseHeld();
    writeQueue.enqueue(new SendDataCommand(this, framed, false), flush);
  }

  /** Queues what was held back, as separate commands, ahead of what comes next. */
  private void releaseHeld() {
    if (heldHeaders != null) {
      writeQueue.enqueue(new SendHeadersCommand(this, heldHeaders, false), false);
      heldHeaders = null;
    }
    ByteBuf message = takeHeldMessage();
    if (message != null) {
      writeQueue.enqueue(new SendDataCommand(this, message, false), false);
    }
  }

  /** The held message, now the caller's, or null. */
  private ByteBuf takeHeldMessage() {
    ByteBuf message = heldMessage;
    if (message == null || message == DISCARDED || !HELD_MESSAGE.compareAndSet(this, message, null)) {
      return null;
    }
    return message;
  }

  /** The call ended: a message still held is released and no other will be. Event loop. */
  void discardHeld() {
    ByteBuf message = HELD_MESSAGE.getAndSet(this, DISCARDED);
    if (message != null && message != DISCARDED) {
      dropped(message);
    }
  }

  /** Releases a message that will not be written, and takes it out of the server's count. Any thread. */
  void dropped(ByteBuf message) {
    int size = message.readableBytes();
    if (size >= ServerBacklog.RESERVED_FROM) {
      serverBacklog.unreserve(size);
    }
    message.release();
  }

  @Override
  public void close(Status status, Metadata trailers) {
    Http2Headers headers;
    if (headersQueued && trailers.isEmpty() && status == Status.OK) {
      headers = OK_TRAILERS;
    } else {
      headers = new DefaultHttp2Headers(false, 4 + trailers.size());
      if (!headersQueued) {
        // Trailers-only: the one header block is also the response's first.
        headers.status(GrpcHeaders.STATUS_200);
        headers.add(GrpcHeaders.CONTENT_TYPE, contentType);
      }
      GrpcHttp2Headers.addMetadata(headers, trailers);
      GrpcHttp2Headers.addStatus(headers, status);
    }
    ByteBuf message = takeHeldMessage();
    if (message != null) {
      writeQueue.enqueue(new SendResponseCommand(this, heldHeaders, message, headers), true);
      heldHeaders = null;
      return;
    }
    releaseHeld();
    writeQueue.enqueue(new SendHeadersCommand(this, headers, true), true);
  }

  @Override
  public void cancel(Status status) {
    ByteBuf message = takeHeldMessage();
    if (message != null) {
      dropped(message);
    }
    heldHeaders = null;
    writeQueue.enqueue(new CancelStreamCommand(this, status), true);
  }

  @Override
  public PeerInfo peer() {
    return peer;
  }

  // StreamHandle: event loop.

  @Override
  public int id() {
    return id;
  }

  /** {@code bytes} of this stream's messages went to the encoder. Event loop. */
  void dataQueued(int bytes) {
    if (bytes >= ServerBacklog.RESERVED_FROM) {
      serverBacklog.handedOn(bytes);
    }
    if (!backlogSettled) {
      backlogBytes += bytes;
      backlog.queued(bytes);
    }
  }

  /**
   * The stream closed: what of it the encoder still held is dropped with it, and leaves the
   * connection's backlog. Event loop.
   */
  void settleBacklog() {
    if (!backlogSettled) {
      backlogSettled = true;
      backlog.dropped(backlogBytes);
      backlogBytes = 0;
    }
  }

  @Override
  public void onDataSent(int bytes) {
    if (!backlogSettled) {
      backlogBytes -= bytes;
      backlog.sent(bytes);
    }
    if (readiness.sent(bytes)) {
      state.notifyReady();
    }
  }

  @Override
  public void writeFailed(Throwable cause) {
    state.cancelled(Status.UNAVAILABLE.withDescription("Could not write to the client: " + cause).withCause(cause));
  }

  /** Everything the event loop owns, the stream's frames included; touched on the event loop only. */
  final class TransportState implements MessageDeframer.Sink, ServerExchange {

    private final InboundWindow window;
    private final MessageDeframer deframer;
    private ServerStreamListener listener;
    /** Whether the response ended (trailers or reset sent, or the client reset): later writes are dropped. */
    private boolean ended;
    /** Whether the response headers went out. */
    private boolean headersSent;
    private boolean halfClosed;

    TransportState(Http2Stream http2Stream, Http2LocalFlowController flowController, int maxInboundMessageSize) {
      this.window = new InboundWindow(flowController, channel);
      window.attach(http2Stream);
      this.deframer = new MessageDeframer(this, maxInboundMessageSize, alloc);
    }

    void listener(ServerStreamListener listener) {
      this.listener = listener;
    }

    boolean ended() {
      return ended;
    }

    boolean headersSent() {
      return headersSent;
    }

    void headersWritten(boolean endOfStream) {
      headersSent = true;
      if (endOfStream) {
        ended = true;
        deframer.close();
      }
    }

    void request(int count) {
      if (!ended) {
        deframer.request(count);
        window.flushUpdate();
      }
    }

    void notifyReady() {
      if (!ended) {
        listener.onReady();
      }
    }

    @Override
    public void onDecongested() {
      if (readiness.isReady()) {
        notifyReady();
      }
    }

    void dataRead(ByteBuf data, boolean endOfStream) {
      if (halfClosed) {
        data.release();
        return;
      }
      if (endOfStream) {
        halfClosed = true;
      }
      deframer.deframe(data, endOfStream);
    }

    /** A header block after the first: trailers from the client, which end its side. */
    void trailersRead(boolean endOfStream) {
      if (!endOfStream) {
        cancelled(Status.INTERNAL.withDescription("Client sent a header block mid-stream without END_STREAM"));
        return;
      }
      dataRead(Unpooled.EMPTY_BUFFER, true);
    }

    @Override
    public int onData(ChannelHandlerContext ctx, ByteBuf data, int padding, boolean endOfStream) {
      dataRead(data.retain(), endOfStream);
      // The deframer acknowledges the message bytes as they are used; the padding is never used.
      return padding;
    }

    @Override
    public void onTrailers(ChannelHandlerContext ctx, boolean endOfStream) {
      trailersRead(endOfStream);
    }

    @Override
    public void onReset(long errorCode) {
      Http2Error error = Http2Error.valueOf(errorCode);
      cancelled(Status.CANCELLED.withDescription(
          "Client reset the stream: RST_STREAM " + (error != null ? error : "code " + errorCode)));
    }

    @Override
    public void abort(Status status) {
      cancelled(status);
    }

    @Override
    public void onClosed() {
      settleBacklog();
      cancelled(Status.UNAVAILABLE.withDescription("HTTP/2 stream closed before the call ended"));
    }

    /** The trailers were written (or failed to be): the call's last event. */
    void completed(Throwable failure) {
      if (failure == null) {
        listener.onComplete();
      } else {
        listener.onCancel(Status.UNAVAILABLE.withDescription("Could not send the trailers: " + failure).withCause(failure));
      }
    }

    /** The call ended without the server closing it: client reset, lost connection, write failure. */
    void cancelled(Status status) {
      if (ended) {
        return;
      }
      ended = true;
      deframer.close();
      discardHeld();
      listener.onCancel(status);
    }

    @Override
    public void onMessage(ByteBuf payload, boolean compressed) {
      listener.onMessage(payload, compressed);
    }

    @Override
    public void onBytesConsumed(int bytes) {
      window.consumed(bytes);
    }

    @Override
    public void onEndOfStream() {
      listener.onHalfClose();
    }

    @Override
    public void onDeframeError(Status status) {
      // Answer with the status, then stop the client sending more.
      writeQueue.enqueue(new CancelStreamCommand(NettyServerStream.this, status), true);
    }
  }
}
