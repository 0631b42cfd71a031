package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameListenerDecorator;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * A frame reader that tells apart the two reasons a client's HEADERS can name a stream below the
 * highest it opened, which Netty's decoder answers alike, with the lesser of the two errors (a
 * RST_STREAM STREAM_CLOSED), because it keeps no record of closed streams:
 *
 * <ul>
 *   <li>an id the client skipped: it is lower than one the client already opened, a connection error
 *       PROTOCOL_ERROR (RFC 9113 5.1.1);
 *   <li>a stream that ended on both sides: a connection error STREAM_CLOSED (RFC 9113 5.1).
 * </ul>
 *
 * <p>A stream this server reset keeps Netty's answer: the client may have sent its HEADERS before the
 * RST_STREAM reached it (RFC 9113 5.1, "closed"). The record of reset streams and skipped ids is
 * bounded; an id that fell out of it counts as closed. Event loop only.
 */
final class StreamIdCheckingFrameReader implements Http2FrameReader {

  /** How many reset streams are remembered: more than a client has frames in flight for, in practice. */
  private static final int RESET_STREAMS = 256;
  /** How many runs of skipped ids are remembered: clients number their streams one after the other. */
  private static final int SKIPPED_RUNS = 16;

  private final Http2FrameReader delegate;
  private final Http2Connection connection;
  /** The ids of the latest streams this server reset, a ring (0 marks a free slot); null until the first. */
  private int[] resetStreams;
  private int nextReset;
  /** Runs of ids the client skipped, a ring of [first, last] pairs; 0 marks a free slot. */
  private final int[] skipped = new int[2 * SKIPPED_RUNS];
  private int nextSkipped;
  /** The highest stream id the client sent HEADERS for. */
  private int highestSeen;
  /** The decoder's listener that {@link #checking} wraps; the decoder swaps it once, after the preface. */
  private Http2FrameListener wrapped;
  private Http2FrameListener checking;

  StreamIdCheckingFrameReader(Http2FrameReader delegate, Http2Connection connection) {
    this.delegate = delegate;
    this.connection = connection;
    connection.addListener(new Http2ConnectionAdapter() {
      @Override
      public void onStreamClosed(Http2Stream stream) {
        if (stream.isResetSent()) {
          resetByServer(stream.id());
        }
      }
    });
  }

  @Override
  public void readFrame(ChannelHandlerContext ctx, ByteBuf input, Http2FrameListener listener) throws Http2Exception {
    if (listener != wrapped) {
      wrapped = listener;
      checking = new Checking(listener);
    }
    delegate.readFrame(ctx, input, checking);
  }

  @Override
  public Configuration configuration() {
    return delegate.configuration();
  }

  @Override
  public void close() {
    delegate.close();
  }

  private void resetByServer(int streamId) {
    if (resetStreams == null) {
      // Most connections never reset a stream: they do not pay for the ring.
      resetStreams = new int[RESET_STREAMS];
    }
    resetStreams[nextReset] = streamId;
    nextReset = (nextReset + 1) % RESET_STREAMS;
  }

  private boolean wasReset(int streamId) {
    if (resetStreams == null) {
      return false;
    }
    for (int id : resetStreams) {
      if (id == streamId) {
        return true;
      }
    }
    return false;
  }

  private boolean wasSkipped(int streamId) {
    for (int i = 0; i < skipped.length; i += 2) {
      if (skipped[i] != 0 && streamId >= skipped[i] && streamId <= skipped[i + 1]) {
        return true;
      }
    }
    return false;
  }

  /** Throws the connection error for HEADERS on {@code streamId}, if it names a stream that cannot take them. */
  private void checkHeaders(int streamId) throws Http2Exception {
    Http2Connection.Endpoint<?> client = connection.remote();
    if (!client.isValidStreamId(streamId)) {
      return; // Netty's own connection error.
    }
    // An h2c upgrade opens stream 1 without HEADERS.
    int previous = Math.max(highestSeen, client.lastStreamCreated());
    if (streamId > previous) {
      int firstSkipped = previous == 0 ? 1 : previous + 2;
      if (streamId > firstSkipped) {
        skipped[nextSkipped] = firstSkipped;
        skipped[nextSkipped + 1] = streamId - 2;
        nextSkipped = (nextSkipped + 2) % skipped.length;
      }
      highestSeen = streamId;
      return;
    }
    if (connection.stream(streamId) != null || wasReset(streamId)
        || connection.goAwaySent() && streamId > client.lastStreamKnownByPeer()) {
      return; // An open stream, a stream reset in flight, or one Netty ignores after its GOAWAY.
    }
    if (wasSkipped(streamId)) {
      throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
          "HEADERS opening stream %d after stream %d: stream ids must increase", streamId, previous);
    }
    throw Http2Exception.connectionError(Http2Error.STREAM_CLOSED, "HEADERS on closed stream %d", streamId);
  }

  /** The decoder's listener, behind the check; a stream refused while opening counts as reset. */
  private final class Checking extends Http2FrameListenerDecorator {

    Checking(Http2FrameListener listener) {
      super(listener);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
        boolean endOfStream) throws Http2Exception {
      checkHeaders(streamId);
      try {
        super.onHeadersRead(ctx, streamId, headers, padding, endOfStream);
      } catch (Http2Exception.StreamException e) {
        resetByServer(e.streamId());
        throw e;
      }
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
        short weight, boolean exclusive, int padding, boolean endOfStream) throws Http2Exception {
      checkHeaders(streamId);
      try {
        super.onHeadersRead(ctx, streamId, headers, streamDependency, weight, exclusive, padding, endOfStream);
      } catch (Http2Exception.StreamException e) {
        resetByServer(e.streamId());
        throw e;
      }
    }
  }
}
