package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.StreamBufferingEncoder;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.Ablations;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.GrpcTimeout;
import io.triplerpc.internal.wire.HttpStatusMapping;
import io.triplerpc.internal.wire.MessageDeframer;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import io.triplerpc.transport.netty.internal.InboundWindow;
import io.triplerpc.transport.netty.internal.OutboundReadiness;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.CreateStreamCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import io.triplerpc.transport.netty.internal.write.StreamHandle;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The client side of one gRPC call on one HTTP/2 stream. The calling thread queues commands; the
 * event loop owns everything in {@link TransportState}.
 */
final class NettyClientStream implements ClientStream, StreamHandle {

  private static final AsciiString APPLICATION_GRPC_WEB = AsciiString.cached("application/grpc-web");

  private static final AsciiString APPLICATION_CONNECT = AsciiString.cached("application/connect+");

  /** Whether {@code contentType} is Connect streaming's: {@code application/connect+codec}. */
  private static boolean isConnectStreamContentType(CharSequence contentType) {
    return contentType != null && contentType.length() > APPLICATION_CONNECT.length()
        && AsciiString.regionMatches(contentType, true, 0, APPLICATION_CONNECT, 0, APPLICATION_CONNECT.length());
  }

  /** Whether {@code contentType} is gRPC-Web's binary one: {@code application/grpc-web}, optionally {@code +proto}. */
  private static boolean isGrpcWebContentType(CharSequence contentType) {
    if (contentType == null || contentType.length() < APPLICATION_GRPC_WEB.length()
        || !AsciiString.regionMatches(contentType, true, 0, APPLICATION_GRPC_WEB, 0, APPLICATION_GRPC_WEB.length())) {
      return false;
    }
    return contentType.length() == APPLICATION_GRPC_WEB.length() || contentType.charAt(APPLICATION_GRPC_WEB.length()) == '+'
        || contentType.charAt(APPLICATION_GRPC_WEB.length()) == ';';
  }


  /** The connection the stream is on. */
  private final ClientConnection connection;
  private final WriteQueue writeQueue;
  private final EventLoop eventLoop;
  private final Http2Headers headers;
  private final int maxInboundMessageSize;
  /** How the call is framed: gRPC, gRPC-Web, Connect unary or streaming. */
  private final ClientWire wire;
  /** How request messages are compressed, or null. */
  private final MessageEncoding requestEncoding;
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

  /** Completed once the stream exists or is closed; only with {@link Ablations#WAIT_FOR_STREAM}. */
  private final CompletableFuture<Void> createdForAblation = Ablations.WAIT_FOR_STREAM ? new CompletableFuture<>() : null;

  /** This stream's part of its connection's backlog; event loop only. */
  private long backlogBytes;
  /** Whether the stream closed and its part left the backlog; event loop only. */
  private boolean backlogSettled;

  /** Set by start (caller thread), read on the event loop after the create command. */
  private final TransportState state = new TransportState();

  NettyClientStream(ClientConnection connection, Http2Headers headers, int maxInboundMessageSize,
      ClientWire wire, MessageEncoding requestEncoding) {
    this(connection, headers, maxInboundMessageSize, wire, requestEncoding, 0);
  }

  /** @param timeoutNanos the deadline {@code headers} announce, 0 for none */
  NettyClientStream(ClientConnection connection, Http2Headers headers, int maxInboundMessageSize,
      ClientWire wire, MessageEncoding requestEncoding, long timeoutNanos) {
    this.connection = connection;
    this.writeQueue = connection.writeQueue();
    this.eventLoop = connection.eventLoop();
    this.headers = headers;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.wire = wire;
    this.requestEncoding = requestEncoding;
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
    long left = Math.max(1, deadlineTicks - eventLoop.ticker().nanoTime());
    if (wire.isConnect()) {
      headers.set(ConnectWire.CONNECT_TIMEOUT_MS, Long.toString(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left))));
    } else {
      headers.set(GrpcHeaders.GRPC_TIMEOUT, GrpcTimeout.encode(left));
    }
  }

  @Override
  public void start(ClientStreamListener listener, boolean headersNow) {
    started = true;
    state.listener = listener;
    state.requested = initialRequest;
    if (createdForAblation != null && !eventLoop.inEventLoop()) {
      writeQueue.enqueue(new CreateStreamCommand(this, headers), true);
      createdForAblation.join();
      return;
    }
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
    if (wire == ClientWire.CONNECT_UNARY) {
      framed = unframed(framed);
    }
    readiness.queued(framed.readableBytes());
    writeQueue.enqueue(new SendDataCommand(this, framed, endOfStream), true);
  }

  /**
   * A Connect unary request's body: the message without its prefix, compressed as its
   * {@code content-encoding} said even if the call turned message compression off.
   */
  private ByteBuf unframed(ByteBuf framed) {
    boolean compressed = (framed.getByte(framed.readerIndex()) & 1) != 0;
    framed.skipBytes(GrpcHeaders.MESSAGE_HEADER_LENGTH);
    if (compressed || requestEncoding == null) {
      return framed;
    }
    ByteBuf body = framed.alloc().buffer(framed.readableBytes());
    try (java.io.OutputStream out = requestEncoding.compress(new io.netty.buffer.ByteBufOutputStream(body))) {
      out.write(ByteBufUtil.getBytes(framed));
    } catch (IOException e) {
      body.release();
      throw new java.io.UncheckedIOException(e);
    } finally {
      framed.release();
    }
    return body;
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

  /** Everything the event loop owns; touched on the event loop only. */
  final class TransportState implements MessageDeframer.Sink {

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
    /** The response's encoding, for the compressed end frame or Connect unary body. */
    private MessageEncoding responseEncoding;
    /** Whether the whole body arrived, for a wire whose trailers are in it (gRPC-Web, Connect streaming). */
    private boolean bodyEnded;
    /** Connect unary: the response's headers and trailers, its HTTP status, and its body while it arrives. */
    private ConnectResponses.UnaryMetadata unaryMetadata;
    private int unaryHttpStatus;
    private ByteBuf unaryBody = Unpooled.EMPTY_BUFFER;
    /** gRPC-Web: a status in the response headers, which make a trailers-only response if no trailer frame comes. */
    private Status headerStatus;
    private Metadata headerMetadata;
    /** The status the server sent, delivered once every message before it was delivered. */
    private Status trailerStatus;
    private Metadata trailers;
    private boolean closed;
    /** A message was delivered since the last {@link #endDelivery}. */
    private boolean messagesPending;

    /** The create command ran: the stream has its id, on the connection {@code handler} runs. */
    void created(int id, Http2LocalFlowController flowController, Channel channel, NettyClientHandler handler) {
      this.id = id;
      this.handler = handler;
      if (createdForAblation != null) {
        createdForAblation.complete(null);
      }
      this.window = new InboundWindow(flowController, channel);
      this.deframer = new MessageDeframer(this, maxInboundMessageSize, channel.alloc(), wire.endFrameFlag());
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
      if (wire == ClientWire.CONNECT_UNARY) {
        unaryHeadersRead(headers, endOfStream);
        return;
      }
      if (!headersReceived) {
        headersReceived = true;
        Status problem = checkResponseHeaders(headers, endOfStream);
        if (problem != null) {
          cancelWithStatus(problem);
          return;
        }
        if (endOfStream) {
          trailersRead(headers);
          return;
        }
        MessageEncoding encoding;
        try {
          encoding = MessageEncoding.forName(headers.get(
              wire == ClientWire.CONNECT_STREAM ? ConnectWire.CONNECT_CONTENT_ENCODING : GrpcHeaders.GRPC_ENCODING));
        } catch (IllegalArgumentException e) {
          cancelWithStatus(Status.INTERNAL.withDescription("Server responded with " + e.getMessage()));
          return;
        }
        responseEncoding = encoding;
        Metadata metadata = GrpcHttp2Headers.lazyMetadata(headers);
        if (wire == ClientWire.GRPC_WEB) {
          headerStatus = GrpcHttp2Headers.statusOf(headers);
          headerMetadata = metadata;
        }
        listener.onHeaders(metadata, encoding);
        return;
      }
      if (!endOfStream) {
        cancelWithStatus(Status.INTERNAL.withDescription("Server sent a second header block without END_STREAM"));
        return;
      }
      trailersRead(headers);
    }

    private Status checkResponseHeaders(Http2Headers headers, boolean endOfStream) {
      CharSequence httpStatus = headers.status();
      int code;
      try {
        code = httpStatus == null ? -1 : Integer.parseInt(httpStatus.toString());
      } catch (NumberFormatException e) {
        code = -1;
      }
      if (code != 200) {
        Status grpc = endOfStream ? GrpcHttp2Headers.statusOf(headers) : null;
        // A trailers-only gRPC answer tells how the call ended in its grpc-status, whatever the HTTP
        // status (grpc-java reads it so; Apache Dubbo 3.3 sends every error as 500 with grpc-status).
        // Without grpc-status, or in another content type, the HTTP status is all there is.
        if (grpc != null && (code == -1
            || wire == ClientWire.GRPC && GrpcHeaders.isGrpcContentType(headers.get(GrpcHeaders.CONTENT_TYPE)))) {
          return null;
        }
        Status status = code == -1
            ? Status.INTERNAL.withDescription("Response has no valid :status: " + httpStatus)
            : HttpStatusMapping.statusForHttp(code);
        return status.augmentDescription("content-type: " + headers.get(GrpcHeaders.CONTENT_TYPE));
      }
      CharSequence contentType = headers.get(GrpcHeaders.CONTENT_TYPE);
      boolean expected = wire == ClientWire.GRPC_WEB ? isGrpcWebContentType(contentType)
          : wire == ClientWire.CONNECT_STREAM ? isConnectStreamContentType(contentType)
          : GrpcHeaders.isGrpcContentType(contentType);
      if (!expected) {
        return Status.UNKNOWN.withDescription("Response is not " + wire + ": content-type " + contentType);
      }
      return null;
    }

    /** Connect streaming's end-of-stream message: the error, if any, and the trailers. */
    private void connectEndRead(String json) {
      ConnectResponses.End end;
      try {
        end = ConnectResponses.endOfStream(json.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        endDelivery();
        cancelWithStatus(Status.INTERNAL.withDescription("Malformed Connect end-of-stream message: " + e.getMessage()));
        return;
      }
      trailerStatus = end.status();
      trailers = end.trailers();
      endDelivery();
      close(trailerStatus, trailers);
    }

    /**
     * The head of a Connect unary response: 200 with the message to come, or an error whose JSON comes
     * as the body (or, without one, whose HTTP status says it).
     */
    private void unaryHeadersRead(Http2Headers headers, boolean endOfStream) {
      if (headersReceived) {
        // HTTP trailers after the body: nothing in them matters but the end.
        if (endOfStream) {
          unaryEnded();
        }
        return;
      }
      headersReceived = true;
      unaryMetadata = ConnectResponses.split(headers);
      CharSequence status = headers.status();
      try {
        unaryHttpStatus = status == null ? -1 : Integer.parseInt(status.toString());
      } catch (NumberFormatException e) {
        unaryHttpStatus = -1;
      }
      try {
        responseEncoding = MessageEncoding.forName(headers.get(ConnectWire.CONTENT_ENCODING));
      } catch (IllegalArgumentException e) {
        cancelWithStatus(Status.INTERNAL.withDescription("Server responded with " + e.getMessage()));
        return;
      }
      if (unaryHttpStatus == 200) {
        CharSequence contentType = headers.get(GrpcHeaders.CONTENT_TYPE);
        if (ConnectWire.unaryCodecOf(contentType) == null) {
          cancelWithStatus(Status.UNKNOWN.withDescription("Response is not Connect unary: content-type " + contentType));
          return;
        }
        listener.onHeaders(unaryMetadata.headers(), responseEncoding);
      }
      unaryBody = Unpooled.EMPTY_BUFFER;
      if (endOfStream) {
        unaryEnded();
      }
    }

    /** Body of a Connect unary response: kept whole (acknowledged as it comes, bounded by the limit). */
    private void unaryDataRead(ByteBuf data, boolean endOfStream) {
      int size = data.readableBytes();
      window.consumed(size);
      window.flushUpdate();
      if (unaryBody.readableBytes() + (long) size > maxInboundMessageSize) {
        data.release();
        cancelWithStatus(Status.RESOURCE_EXHAUSTED.withDescription(
            "Response message exceeds maximum size " + maxInboundMessageSize));
        return;
      }
      if (!unaryBody.isReadable()) {
        unaryBody.release();
        unaryBody = data;
      } else {
        CompositeByteBuf body = unaryBody instanceof CompositeByteBuf ? (CompositeByteBuf) unaryBody
            : data.alloc().compositeBuffer(Integer.MAX_VALUE).addComponent(true, unaryBody);
        body.addComponent(true, data);
        unaryBody = body;
      }
      if (endOfStream) {
        unaryEnded();
      }
    }

    /** The whole Connect unary response is in: its message and trailers, or its error. */
    private void unaryEnded() {
      ByteBuf body = unaryBody;
      unaryBody = Unpooled.EMPTY_BUFFER;
      if (unaryHttpStatus == 200) {
        trailerStatus = Status.OK;
        trailers = unaryMetadata.trailers();
        onMessage(body, responseEncoding != null);
        endDelivery();
        close(trailerStatus, trailers);
        return;
      }
      byte[] json;
      try (InputStream in = responseEncoding == null ? new ByteBufInputStream(body)
          : responseEncoding.decompress(new ByteBufInputStream(body))) {
        json = in.readNBytes(maxInboundMessageSize);
      } catch (IOException e) {
        json = new byte[0];
      } finally {
        body.release();
      }
      // An error carries the response's headers and trailers alike, as Connect's errors do.
      Metadata metadata = unaryMetadata.headers().merge(unaryMetadata.trailers());
      trailerStatus = ConnectResponses.unaryError(unaryHttpStatus, json);
      trailers = metadata;
      close(trailerStatus, metadata);
    }

    private void trailersRead(Http2Headers headers) {
      Status status = GrpcHttp2Headers.statusOf(headers);
      if (status == null) {
        status = Status.UNKNOWN.withDescription("Server ended the call without grpc-status");
      }
      trailerStatus = status;
      trailers = GrpcHttp2Headers.lazyMetadata(headers);
      if (deframer == null) {
        close(trailerStatus, trailers);
        return;
      }
      deframer.deframe(Unpooled.EMPTY_BUFFER, true);
      endDelivery();
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
      // gRPC-Web's trailers are the body's last frame: the deframer sees the end of the stream.
      if (wire == ClientWire.CONNECT_UNARY) {
        unaryDataRead(data, endOfStream);
        return;
      }
      if (endOfStream && wire.endFrameFlag() != 0) {
        // The trailers are in the body: they come out of the deframer after the messages before them,
        // which may wait for the reader's demand after the HTTP/2 stream has closed.
        bodyEnded = true;
      }
      deframer.deframe(data, wire.endFrameFlag() != 0 && endOfStream);
      endDelivery();
      if (endOfStream && !closed && wire.endFrameFlag() == 0) {
        cancelWithStatus(Status.INTERNAL.withDescription("Server ended the stream on DATA, without trailers"));
      }
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
      if (createdForAblation != null) {
        createdForAblation.complete(null);
      }
      if (deframer != null) {
        deframer.close();
      }
      if (listener != null) {
        listener.onUnprocessed(status);
      }
    }

    void close(Status status, Metadata trailers) {
      if (closed) {
        return;
      }
      closed = true;
      if (createdForAblation != null) {
        createdForAblation.complete(null);
      }
      if (deframer != null) {
        deframer.close();
      }
      if (listener != null) {
        listener.onClose(status, trailers);
      }
    }

    @Override
    public void onMessage(ByteBuf payload, boolean compressed) {
      messagesPending = true;
      listener.onMessage(payload, compressed);
    }

    /** After every call into the deframer: the messages it delivered go over as one batch. */
    private void endDelivery() {
      if (messagesPending) {
        messagesPending = false;
        listener.onMessagesDelivered();
      }
    }

    @Override
    public void onBytesConsumed(int bytes) {
      window.consumed(bytes);
    }

    @Override
    public void onEndOfStream() {
      if (trailerStatus == null) {
        // The body ended without its end frame. gRPC-Web: a status in the headers made them
        // trailers-only, with an empty body.
        if (headerStatus != null) {
          close(headerStatus, headerMetadata);
        } else {
          close(Status.INTERNAL.withDescription("Server ended the " + wire + " response without "
              + (wire == ClientWire.CONNECT_STREAM ? "its end-of-stream message" : "trailers")), new Metadata());
        }
        return;
      }
      close(trailerStatus, trailers);
    }

    /** gRPC-Web's trailers, the body's last frame: {@code name: value} lines. */
    @Override
    public void onEndFrame(ByteBuf payload, boolean compressed) {
      Http2Headers block = new DefaultHttp2Headers(false);
      try {
        String text;
        if (compressed) {
          if (responseEncoding == null) {
            endDelivery();
            cancelWithStatus(Status.INTERNAL.withDescription("Compressed gRPC-Web trailers without grpc-encoding"));
            return;
          }
          try (InputStream in = responseEncoding.decompress(new ByteBufInputStream(payload))) {
            text = new String(in.readNBytes(maxInboundMessageSize), StandardCharsets.UTF_8);
          } catch (IOException e) {
            endDelivery();
            cancelWithStatus(Status.INTERNAL.withDescription("Could not decompress the gRPC-Web trailers: " + e));
            return;
          }
        } else {
          text = payload.toString(StandardCharsets.UTF_8);
        }
        if (wire == ClientWire.CONNECT_STREAM) {
          connectEndRead(text);
          return;
        }
        for (String line : text.split("\r\n")) {
          if (line.isEmpty()) {
            continue;
          }
          int colon = line.indexOf(':');
          if (colon <= 0) {
            endDelivery();
            cancelWithStatus(Status.INTERNAL.withDescription("Malformed gRPC-Web trailer line: " + line));
            return;
          }
          block.add(AsciiString.of(line.substring(0, colon).trim().toLowerCase(Locale.ROOT)),
              line.substring(colon + 1).trim());
        }
      } finally {
        payload.release();
      }
      Status status = GrpcHttp2Headers.statusOf(block);
      trailerStatus = status != null ? status
          : Status.INTERNAL.withDescription("Server ended the gRPC-Web response without grpc-status");
      trailers = GrpcHttp2Headers.toMetadata(block);
      endDelivery();
      close(trailerStatus, trailers);
    }

    @Override
    public void onDeframeError(Status status) {
      cancelWithStatus(status);
    }
  }
}
