package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.logging.LogLevel;

/**
 * Tells apart the two reasons a client's HEADERS can name a stream below the highest it opened, which
 * Netty's decoder answers alike, with the lesser of the two errors (a stream error STREAM_CLOSED),
 * because it keeps no record of closed streams:
 *
 * <ul>
 *   <li>an id the client skipped: it is lower than one the client already opened, a connection error
 *       PROTOCOL_ERROR (RFC 9113 5.1.1);
 *   <li>a stream that ended on both sides: a connection error STREAM_CLOSED (RFC 9113 5.1).
 * </ul>
 *
 * <p>A stream this server reset keeps Netty's answer: the client may have sent its HEADERS before the
 * RST_STREAM reached it (RFC 9113 5.1, "closed"). The record of reset streams and skipped ids is
 * bounded; an id that fell out of it counts as closed.
 *
 * <p>It sees the frames as Netty's frame logger, the one hook Netty's handler builder offers between
 * the frame reader and the decoder (the builder wraps the codec in Netty's abuse limits, so the reader
 * cannot be replaced): a client's HEADERS before the decoder acts on them, the server's RST_STREAM as
 * they are written. The handler asks {@link #connectionErrorFor} when the decoder raised its stream
 * error. Through the same hook it tells the handler when response HEADERS or DATA reach the socket
 * ({@link #onResponseFrameWritten}): the flow controller writes DATA long after a call queued it. It
 * logs nothing. Event loop only.
 */
final class StreamIdChecks extends Http2FrameLogger {

  /** How many reset streams are remembered: more than a client has frames in flight for, in practice. */
  private static final int RESET_STREAMS = 256;
  /** How many runs of skipped ids are remembered: clients number their streams one after the other. */
  private static final int SKIPPED_RUNS = 16;

  private final Http2Connection connection;
  /** The ids of the latest streams this server reset, a ring (0 marks a free slot); null until the first. */
  private int[] resetStreams;
  private int nextReset;
  /** Runs of ids the client skipped, a ring of [first, last] pairs; 0 marks a free slot. */
  private final int[] skipped = new int[2 * SKIPPED_RUNS];
  private int nextSkipped;
  /** The highest stream id the client sent HEADERS for. */
  private int highestSeen;
  /** Runs when the server writes HEADERS or DATA; nothing until set. */
  private Runnable responseFrameWritten = () -> { };
  /** The stream of the client's latest HEADERS, and the connection error they call for (or null). */
  private int headersStream;
  private Http2Exception headersVerdict;

  StreamIdChecks(Http2Connection connection) {
    super(LogLevel.TRACE, StreamIdChecks.class);
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

  /** Never logs, whatever the log level: every frame goes through this hook, and it is not a logger. */
  @Override
  public boolean isEnabled() {
    return false;
  }

  /**
   * The connection error that replaces the decoder's stream error {@code error} (raised on the client's
   * latest HEADERS), or null to keep the stream error.
   */
  Http2Exception connectionErrorFor(Http2Exception.StreamException error) {
    if (error.error() != Http2Error.STREAM_CLOSED || error.streamId() != headersStream) {
      return null;
    }
    return headersVerdict;
  }

  /** Runs {@code action} each time the server writes HEADERS or DATA. */
  void onResponseFrameWritten(Runnable action) {
    responseFrameWritten = action;
  }

  @Override
  public void logHeaders(Direction direction, ChannelHandlerContext ctx, int streamId, Http2Headers headers,
      int padding, boolean endStream) {
    if (direction == Direction.INBOUND) {
      headersRead(streamId);
    } else {
      responseFrameWritten.run();
    }
  }

  @Override
  public void logHeaders(Direction direction, ChannelHandlerContext ctx, int streamId, Http2Headers headers,
      int streamDependency, short weight, boolean exclusive, int padding, boolean endStream) {
    if (direction == Direction.INBOUND) {
      headersRead(streamId);
    } else {
      responseFrameWritten.run();
    }
  }

  @Override
  public void logData(Direction direction, ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
      boolean endStream) {
    if (direction == Direction.OUTBOUND) {
      responseFrameWritten.run();
    }
  }

  @Override
  public void logRstStream(Direction direction, ChannelHandlerContext ctx, int streamId, long errorCode) {
    if (direction == Direction.OUTBOUND) {
      // Also covers streams refused while they opened, which Netty never counted as created.
      resetByServer(streamId);
    }
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

  /** Judges HEADERS on {@code streamId} before the decoder acts on them. */
  private void headersRead(int streamId) {
    headersStream = streamId;
    headersVerdict = verdict(streamId);
  }

  /** The connection error HEADERS on {@code streamId} call for, or null if they may open or continue it. */
  private Http2Exception verdict(int streamId) {
    Http2Connection.Endpoint<?> client = connection.remote();
    if (!client.isValidStreamId(streamId)) {
      return null; // Netty's own connection error.
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
      return null;
    }
    if (connection.stream(streamId) != null || wasReset(streamId)
        || connection.goAwaySent() && streamId > client.lastStreamKnownByPeer()) {
      return null; // An open stream, a stream reset in flight, or one Netty ignores after its GOAWAY.
    }
    if (wasSkipped(streamId)) {
      return Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
          "HEADERS opening stream %d after stream %d: stream ids must increase", streamId, previous);
    }
    return Http2Exception.connectionError(Http2Error.STREAM_CLOSED, "HEADERS on closed stream %d", streamId);
  }
}
