package io.triplerpc.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2LocalFlowController;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2Stream;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ConnectionView;
import io.triplerpc.internal.stream.Http2Limits;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.transport.netty.internal.write.QueuedCommand;
import io.triplerpc.transport.netty.internal.write.SendPingCommand;
import io.triplerpc.transport.netty.internal.write.SendSettingsCommand;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the client and server HTTP/2 handlers share: the inbound windows and their growth, keepalive,
 * and a peer that vanished.
 */
public abstract class GrpcHttp2ConnectionHandler extends Http2ConnectionHandler {

  private static final Logger log = LoggerFactory.getLogger(GrpcHttp2ConnectionHandler.class);
  /** The payload of keepalive PINGs ("keepaliv"). */
  protected static final long KEEPALIVE_PING_DATA = 0x6b656570616c6976L;

  private final int connectionWindow;
  private final int maxWindow;
  private boolean connectionWindowWidened;
  /** Grows the inbound windows; set when the handler is added. */
  private BandwidthDelayWindow windowSizer;
  /** Keepalive for this connection, or null when it is off. */
  private KeepAlivePinger keepAlive;

  protected GrpcHttp2ConnectionHandler(
      Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings, Http2Limits limits) {
    super(decoder, encoder, settings);
    this.connectionWindow = limits.initialWindowSize();
    this.maxWindow = limits.maxWindowSize();
    connection().addListener(new Http2ConnectionAdapter() {
      @Override
      public void onStreamActive(Http2Stream stream) {
        if (keepAlive != null) {
          keepAlive.onCallStarted();
        }
      }
    });
  }

  /** The queue that runs this connection's commands, closes and pings included. */
  public abstract WriteQueue writeQueue();

  /**
   * Queues {@code command}, which this handler decided on itself (in a read or a timer, not while a
   * command runs), and writes it now, behind what waits: its frames keep their place among the streams'
   * and leave before the next frame read is handled, as a write from the read itself would. Event loop.
   */
  public final void writeNow(QueuedCommand command) {
    WriteQueue queue = writeQueue();
    queue.enqueue(command, false);
    queue.drainNow();
  }

  /**
   * Starts keepalive on this connection, unless {@code timeNanos} is {@link KeepAlive#OFF}.
   * Event loop, once the connection is active.
   */
  protected final void startKeepAlive(
      ChannelHandlerContext ctx, long timeNanos, long timeoutNanos, boolean withoutCalls) {
    if (!KeepAlive.on(timeNanos) || keepAlive != null) {
      return;
    }
    keepAlive = new KeepAlivePinger(ctx.executor(), timeNanos, timeoutNanos, withoutCalls,
        new KeepAlivePinger.Connection() {
          @Override
          public void sendPing() {
            writeQueue().enqueue(new SendPingCommand(KEEPALIVE_PING_DATA), true);
          }

          @Override
          public boolean hasCalls() {
            return connection().numActiveStreams() > 0;
          }

          @Override
          public void dead(long silentNanos) {
            keepAliveFailed(ctx, Status.UNAVAILABLE.withDescription("Keepalive failed: nothing received for "
                + TimeUnit.NANOSECONDS.toMillis(silentNanos) + " ms, and no answer to a PING in "
                + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms; the connection is likely gone"));
          }
        });
    keepAlive.start();
  }

  /** Keepalive PINGs this connection has sent. */
  public final long keepAlivePingsSent() {
    return keepAlive == null ? 0 : keepAlive.pingsSent();
  }

  /** The state of this connection's keepalive, or null when it is off. Event loop. */
  public final ConnectionView.KeepAliveState keepAliveState() {
    return keepAlive == null ? null : keepAlive.state();
  }

  /** The connection's flow-control windows now. Event loop. */
  public final ConnectionView.FlowControl flowControl() {
    Http2Stream connectionStream = connection().connectionStream();
    return new ConnectionView.FlowControl(connection().local().flowController().windowSize(connectionStream),
        connection().remote().flowController().windowSize(connectionStream));
  }

  /**
   * The peer stopped answering: end every stream in flight with {@code status} and close the
   * connection at once (a GOAWAY could wait forever behind unsent bytes).
   */
  protected abstract void keepAliveFailed(ChannelHandlerContext ctx, Status status);

  /** Every read is a sign of life for keepalive; the frames it holds are decoded as usual. */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (keepAlive != null) {
      keepAlive.onRead();
    }
    super.channelRead(ctx, msg);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (keepAlive != null) {
      keepAlive.stop();
    }
    super.channelInactive(ctx);
  }

  /** Sends the preface, then widens the connection window from HTTP/2's 64 KiB to the stream window. */
  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    super.channelActive(ctx);
    widenConnectionWindow();
  }

  /**
   * Added to a connection already active (after protocol detection, an h2c upgrade or ALPN, as every
   * server connection is): Netty sends the preface now, and the window widens with it.
   */
  @Override
  public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    windowSizer = new BandwidthDelayWindow(ctx.executor().ticker(), connectionWindow, maxWindow);
    super.handlerAdded(ctx);
    if (ctx.channel().isActive()) {
      widenConnectionWindow();
      ctx.flush();
    }
  }

  private void widenConnectionWindow() throws Http2Exception {
    if (connectionWindowWidened) {
      return;
    }
    connectionWindowWidened = true;
    widenConnectionWindowTo(connectionWindow);
  }

  /** Raises the connection's inbound window to {@code window} bytes (a WINDOW_UPDATE), if it is smaller. */
  private void widenConnectionWindowTo(int window) throws Http2Exception {
    Http2LocalFlowController flowController = connection().local().flowController();
    Http2Stream connectionStream = connection().connectionStream();
    int increment = window - flowController.initialWindowSize(connectionStream);
    if (increment > 0) {
      // Netty's flow controller writes the WINDOW_UPDATE itself, as it does for every byte consumed.
      flowController.incrementWindowSize(connectionStream, increment);
    }
  }

  /** The inbound flow-control window of each new stream and of the connection, in bytes. */
  public final int inboundWindow() {
    return windowSizer == null ? connectionWindow : windowSizer.window();
  }

  /** After a read that brought DATA, a PING may start a round trip's measurement; then the flush. */
  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
    if (windowSizer != null && windowSizer.startMeasurement()) {
      writeNow(new SendPingCommand(BandwidthDelayWindow.PING_DATA));
    }
    super.channelReadComplete(ctx);
  }

  /**
   * The measurement's PING came back: when the round trip asks for larger windows, the connection's
   * widens at once (WINDOW_UPDATE) and every stream's with SETTINGS_INITIAL_WINDOW_SIZE, applied
   * locally now as the peer may use it as soon as it reads the SETTINGS. The next measurement's PING
   * follows these SETTINGS, so their ACK is read (and Netty applies them again, unchanged) before a
   * further growth: an older value is never applied over a newer one.
   */
  private void windowMeasured() throws Http2Exception {
    int window = windowSizer.pingAnswered();
    if (window == 0) {
      return;
    }
    widenConnectionWindowTo(window);
    connection().local().flowController().initialWindowSize(window);
    writeNow(new SendSettingsCommand(new Http2Settings().initialWindowSize(window)));
  }

  /**
   * An HTTP/2 connection as both sides use it. Inbound: the connection window refills as bytes arrive,
   * each stream's only as its messages are read, so a slow reader stalls its own stream and never the
   * connection. Outbound: when a WINDOW_UPDATE frees bytes for many streams at once, they are shared
   * in whole frames; Netty's default weighted-fair distributor hands them out 1 KiB at a time, which
   * with 32 streams of 100 KB responses cost the server more in DATA frames and writev than the
   * serialization of the messages (as grpc-java and Dubbo do, the uniform distributor is used).
   */
  public static Http2Connection newConnection(boolean server) {
    Http2Connection connection = new DefaultHttp2Connection(server);
    connection.local().flowController(new DefaultHttp2LocalFlowController(connection, 0.5f, true));
    UniformStreamByteDistributor distributor = new UniformStreamByteDistributor(connection);
    distributor.minAllocationChunk(Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE);
    connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection, distributor));
    return connection;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
    if (cause instanceof IOException) {
      // The peer went away (connection reset): the streams close with the channel.
      log.debug("I/O error on {}: {}", ctx.channel(), cause.toString());
      ctx.close();
      return;
    }
    log.warn("Error on {}", ctx.channel(), cause);
    super.exceptionCaught(ctx, cause);
  }

  /**
   * A frame listener whose HEADERS arrive through one method, with or without priority, and whose
   * DATA and PING ACKs the window growth sees first.
   */
  protected abstract class HeadersListener extends Http2FrameAdapter {

    @Override
    public abstract void onHeadersRead(
        ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endOfStream)
        throws Http2Exception;

    @Override
    public final void onHeadersRead(
        ChannelHandlerContext ctx,
        int streamId,
        Http2Headers headers,
        int streamDependency,
        short weight,
        boolean exclusive,
        int padding,
        boolean endOfStream) throws Http2Exception {
      onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public final int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
        throws Http2Exception {
      windowSizer.dataRead(data.readableBytes() + padding);
      return onData(ctx, streamId, data, padding, endOfStream);
    }

    /** A DATA frame, as {@link #onDataRead}: the bytes to return to flow control now. */
    protected abstract int onData(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
        throws Http2Exception;

    @Override
    public final void onPingAckRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
      if (data == BandwidthDelayWindow.PING_DATA) {
        windowMeasured();
      } else {
        onOtherPingAck(ctx, data);
      }
    }

    /** The ACK of a PING other than the window's measurement. */
    protected void onOtherPingAck(ChannelHandlerContext ctx, long data) throws Http2Exception {}
  }
}
