package io.triplerpc.transport.http3.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http3.Http3GoAwayFrame;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicException;
import io.netty.handler.codec.quic.QuicStreamLimitChangedEvent;
import io.netty.handler.codec.quic.QuicStreamType;
import io.netty.handler.codec.quic.QuicTransportError;
import io.netty.util.ReferenceCountUtil;
import io.triplerpc.Status;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.CreateStreamCommand;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * One QUIC connection of a client, on a UDP socket of its own: its one {@link WriteQueue}, whose commands
 * {@link CommandHandler} (last in the socket's pipeline) carries out on the QUIC connection's request
 * streams, and whether it is up and may take new calls (volatile flags, never a question to the socket).
 * The queue is the socket's because the QUIC connection exists only once the handshake starts; it holds
 * the commands until the handshake is done.
 */
final class Http3ClientConnection {

  private final Channel udp;
  private final WriteQueue writeQueue;
  private final Http3ClientTransport transport;

  /** The QUIC connection once its handshake is done; null before. */
  private volatile QuicChannel quic;
  /** The streams open on it. Event loop. */
  private final Set<Http3ClientStream.TransportState> streams = new HashSet<>();
  /** The id the server's last GOAWAY named (streams from it on are not served), or -1. Event loop. */
  private long goAwayId = -1;
  /**
   * Request streams to create once the server allows more (its MAX_STREAMS), in the order their calls came.
   * Event loop.
   */
  private final ArrayDeque<Runnable> waitingForStream = new ArrayDeque<>();

  /** True once the handshake is done, until the connection is going away. */
  private volatile boolean active;
  /** True once the connection closed, failed or got GOAWAY: no new call may start on it. */
  private volatile boolean gone;

  Http3ClientConnection(Channel udp, Http3ClientTransport transport) {
    this.udp = udp;
    this.transport = transport;
    this.writeQueue = new WriteQueue(udp);
  }

  WriteQueue writeQueue() {
    return writeQueue;
  }

  EventLoop eventLoop() {
    return udp.eventLoop();
  }

  boolean isActive() {
    return active;
  }

  boolean isUsable() {
    return !gone;
  }

  long goAwayId() {
    return goAwayId;
  }

  /**
   * Creates a request stream now with {@code create} if the server allows one more, else once it does, after the
   * calls already waiting. Asked first because a creation the limit refuses still uses up a stream id in Netty's
   * QUIC (4.2.18), so that each refusal would need one more stream of credit. Event loop.
   */
  void whenStreamAllowed(Runnable create) {
    if (waitingForStream.isEmpty() && mayOpenStream()) {
      create.run();
    } else {
      waitingForStream.add(create);
    }
  }

  /** Whether the server allows another request stream now (Netty counts the ones created since it last heard). */
  private boolean mayOpenStream() {
    return quic != null && quic.peerAllowedStreams(QuicStreamType.BIDIRECTIONAL) > 0;
  }

  /**
   * A request stream could not be created: if the server's stream limit refused it on a connection still up,
   * {@code create} runs again once the server allows another, first of those waiting, and this returns true.
   * Event loop.
   */
  boolean waitForStream(Throwable cause, Runnable create) {
    if (!(cause instanceof QuicException quicException)
        || quicException.error() != QuicTransportError.STREAM_LIMIT_ERROR
        || quic == null || !quic.isActive()) {
      return false;
    }
    waitingForStream.addFirst(create);
    return true;
  }

  /** The server's stream limit changed: as many waiting streams as it now allows are created. Event loop. */
  private void streamLimitChanged() {
    while (!waitingForStream.isEmpty() && mayOpenStream()) {
      waitingForStream.poll().run();
    }
  }

  /** The connection is gone: the streams waiting for one are created on it, and fail as its calls do. Event loop. */
  private void failWaitingForStream() {
    Runnable create;
    while ((create = waitingForStream.poll()) != null) {
      create.run();
    }
  }

  /** What follows the server's stream limit on the QUIC connection's pipeline. */
  ChannelInboundHandlerAdapter streamLimitWatcher() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof QuicStreamLimitChangedEvent) {
          streamLimitChanged();
        }
        super.userEventTriggered(ctx, event);
      }

      @Override
      public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        failWaitingForStream();
        super.channelInactive(ctx);
      }
    };
  }

  /** What reads the server's control stream: its GOAWAY. */
  ChannelInboundHandlerAdapter controlStreamReader() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http3GoAwayFrame) {
          goAway(((Http3GoAwayFrame) msg).id());
        }
        ReferenceCountUtil.release(msg);
      }
    };
  }

  /** The handshake is done: commands may flow. Event loop. */
  void connected(QuicChannel quic) {
    this.quic = quic;
    if (!gone) {
      active = true;
    }
    writeQueue.markReady();
    transport.connectionsChanged();
  }

  /** The connection closed, or never opened: fail what waits and what comes. Any thread. */
  void closed(Throwable cause) {
    active = false;
    boolean wasGone = gone;
    gone = true;
    if (quic == null && !wasGone) {
      // Before the queued calls fail unprocessed and go again: a client that falls back sends them over TCP.
      transport.connectFailed();
    }
    writeQueue.markFailed(cause);
    transport.connectionsChanged();
  }

  /** The server is going away: no new calls here; the connection closes with its last stream. Event loop. */
  private void goAway(long id) {
    goAwayId = id;
    active = false;
    gone = true;
    transport.connectionsChanged();
    if (streams.isEmpty()) {
      close();
    }
  }

  void streamOpened(Http3ClientStream.TransportState stream) {
    streams.add(stream);
  }

  void streamClosed(Http3ClientStream.TransportState stream) {
    if (streams.remove(stream) && streams.isEmpty() && gone) {
      close();
    }
  }

  /** Closes the connection at once; its calls fail. Any thread. */
  void close() {
    gone = true;
    if (quic != null) {
      quic.close();
    }
    udp.close();
  }

  /** Carries out the write queue's commands on the QUIC connection's streams. Event loop only. */
  final class CommandHandler extends ChannelDuplexHandler {

    /** Every command this connection accepts; anything else is QUIC's, on its way to the socket. */
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (msg instanceof SendDataCommand) {
        SendDataCommand command = (SendDataCommand) msg;
        ((Http3ClientStream) command.stream()).send(command, promise);
      } else if (msg instanceof CreateStreamCommand) {
        CreateStreamCommand command = (CreateStreamCommand) msg;
        ((Http3ClientStream) command.stream()).open(quic, command.headers(), promise);
      } else if (msg instanceof CancelStreamCommand) {
        CancelStreamCommand command = (CancelStreamCommand) msg;
        ((Http3ClientStream) command.stream()).cancel(command.status(), promise);
      } else if (msg instanceof ForcefulCloseCommand) {
        promise.setSuccess();
        Http3ClientConnection.this.close();
      } else {
        // QUIC's own packets, which its connection writes through the socket's whole pipeline.
        ctx.write(msg, promise);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      closed(Status.UNAVAILABLE.withDescription("HTTP/3 connection closed").asException());
      super.channelInactive(ctx);
    }
  }
}
