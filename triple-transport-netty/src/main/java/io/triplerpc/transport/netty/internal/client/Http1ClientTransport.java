package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectDecoder;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.FailedClientStream;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The client transport to one address over HTTP/1.1: one call at a time per connection. A call takes an
 * idle connection, or opens one; its connection goes back to the idle ones when its exchange ended and
 * both sides keep it alive (at most {@value #MAX_IDLE} wait), and closes otherwise (a cancelled call, a
 * failed exchange, {@code connection: close}). The framings are those of HTTP/2; only the stream
 * underneath ({@link Http1ClientStream}) differs.
 */
final class Http1ClientTransport extends AbstractClientTransport {

  /** Idle connections kept per address for the next calls; more close once their exchange ends. */
  static final int MAX_IDLE = 8;

  /** Every open connection of this transport, idle or not. */
  private final Set<Http1ClientConnection> open = ConcurrentHashMap.newKeySet();
  /** Connections waiting for a call, the most recently used first. Guarded by itself. */
  private final ArrayDeque<Http1ClientConnection> idle = new ArrayDeque<>();
  /** Guarded by {@link #idle}. */
  private boolean shutdown;

  Http1ClientTransport(Dialer dialer, EventLoopGroup group) {
    super(dialer, group.next());
  }

  @Override
  public ClientStream newStream(
      MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
    Http1ClientConnection connection;
    try {
      connection = acquire();
    } catch (IllegalStateException e) {
      return new FailedClientStream(Status.UNAVAILABLE.withDescription("Client is closed"));
    }
    ClientFraming framing = framing(method, requestEncoding);
    return new Http1ClientStream(connection, requestHeaders(method, framing, headers, timeoutNanos, requestEncoding),
        maxInboundMessageSize(), framing, method.type());
  }

  /** An idle connection, or a new one. */
  private Http1ClientConnection acquire() {
    synchronized (idle) {
      if (shutdown) {
        throw new IllegalStateException("closed");
      }
      Http1ClientConnection c;
      while ((c = idle.pollFirst()) != null) {
        if (c.isUsable()) {
          return c;
        }
      }
    }
    return connect();
  }

  /** {@code connection}'s exchange ended and it may carry another. Event loop. */
  void release(Http1ClientConnection connection) {
    synchronized (idle) {
      if (!shutdown && connection.isUsable() && idle.size() < MAX_IDLE) {
        if (!idle.contains(connection)) {
          idle.addFirst(connection);
        }
        return;
      }
    }
    connection.close();
  }

  /** {@code connection} closed. Event loop. */
  void closed(Http1ClientConnection connection) {
    open.remove(connection);
    synchronized (idle) {
      idle.remove(connection);
    }
  }

  private Http1ClientConnection connect() {
    SocketChannel channel = dialer.newChannel();
    Http1ClientConnection connection =
        new Http1ClientConnection(channel, this, Math.max(options.limits().initialWindowSize(), 64 * 1024));
    open.add(connection);
    channel.closeFuture().addListener(closed -> {
      connection.markClosed(
          Status.UNAVAILABLE.withDescription("Connection to " + dialer.target() + " closed").asException());
      connectionListeners.changed();
    });
    Consumer<Status> failed = status -> connection.markClosed(status.asException());
    dialer.addTls(channel, failed, () -> connected(connection));
    channel.pipeline().addLast(new HttpClientCodec(HttpObjectDecoder.DEFAULT_MAX_INITIAL_LINE_LENGTH,
        options.limits().maxHeaderListSize(), HttpObjectDecoder.DEFAULT_MAX_CHUNK_SIZE), connection.handler());
    dialer.connect(scheduler(), channel, failed, () -> {
      if (!dialer.isTls()) {
        connected(connection);
      }
    });
    return connection;
  }

  private void connected(Http1ClientConnection connection) {
    connection.markActive();
    connectionListeners.changed();
  }

  /** Closes every connection, through its queue after what its call queued; calls in flight fail with UNAVAILABLE. */
  @Override
  public void shutdown() {
    synchronized (idle) {
      shutdown = true;
      idle.clear();
    }
    open.forEach(Http1ClientConnection::closeForClient);
  }

  @Override
  void forEachConnection(Consumer<AbstractClientConnection> action) {
    open.forEach(action);
  }
}
