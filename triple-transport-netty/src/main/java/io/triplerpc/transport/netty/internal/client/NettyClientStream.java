package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.StreamBufferingEncoder;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.transport.netty.internal.InboundWindow;
import java.io.IOException;

/**
 * The client side of one call on one HTTP/2 stream: what HTTP/2 adds to {@link AbstractClientStream}'s
 * lifecycle (stream ids, flow control, the connection's backlog, GOAWAY and RST_STREAM), whatever the
 * protocol; its {@link ClientFraming} knows how the protocol frames it. The calling thread queues
 * commands; the event loop owns everything in {@link TransportState}.
 */
final class NettyClientStream extends AbstractClientStream {

  /** The connection the stream is on. */
  private final ClientConnection connection;
  /** When the call's deadline passes on the event loop's ticker; meaningless without {@link #hasDeadline}. */
  private final long deadlineTicks;
  private final boolean hasDeadline;

  /** This stream's part of its connection's backlog; event loop only. */
  private long backlogBytes;
  /** Whether the stream closed and its part left the backlog; event loop only. */
  private boolean backlogSettled;

  /** Set by start (caller thread), read on the event loop after the create command. */
  private final TransportState state = new TransportState();

  /** @param timeoutNanos the deadline {@code headers} announce, 0 for none */
  NettyClientStream(ClientConnection connection, Http2Headers headers, int maxInboundMessageSize,
      ClientFraming framing, long timeoutNanos) {
    super(connection.writeQueue(), connection.eventLoop(), headers, maxInboundMessageSize, framing);
    this.connection = connection;
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
    super.onDataSent(bytes);
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

  @Override
  protected TransportState state() {
    return state;
  }

  /** The HTTP/2 side of the response; touched on the event loop only. */
  final class TransportState extends State {

    private int id = -1;
    private InboundWindow window;
    /** Whether the stream's HEADERS were written to the socket whole. */
    private boolean headersWritten;
    /** The handler of the stream's connection, once created; it knows why the server ended it. */
    private NettyClientHandler handler;

    /** The create command ran: the stream has its id, on the connection {@code handler} runs. */
    void created(int id, Http2LocalFlowController flowController, Channel channel, NettyClientHandler handler) {
      this.id = id;
      this.handler = handler;
      this.window = new InboundWindow(flowController, channel);
      streamCreated(channel.alloc());
    }

    /** The HTTP/2 stream exists (at once, or when a MAX_CONCURRENT_STREAMS slot freed). */
    void attach(Http2Stream stream) {
      window.attach(stream);
    }

    @Override
    protected void returnBytes(int bytes) {
      window.consumed(bytes);
    }

    @Override
    protected void flushReturned() {
      window.flushUpdate();
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
      if (isClosed()) {
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

    /** Whether a GOAWAY from the server named a last stream before this one. */
    private boolean unprocessedByGoAway() {
      return handler != null && id > 0 && handler.connection().goAwayReceived()
          && id > handler.connection().local().lastStreamKnownByPeer();
    }
  }
}
