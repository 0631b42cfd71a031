package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.GrpcTimeout;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import java.net.InetSocketAddress;

/**
 * A client connection whose handler runs in an {@link EmbeddedChannel} on a mock clock, the test
 * playing the server through {@link #server}: its SETTINGS exchanged, the client's first frames read.
 */
final class EmbeddedClientConnection implements AutoCloseable {

  final EmbeddedHttp2Peer server;
  final ClientConnection connection;

  EmbeddedClientConnection(ClientTransportOptions options, KeepAliveTime keepAliveTime) throws Exception {
    MockTicker ticker = Ticker.newMockTicker();
    // The slot's loop (its clock) only: this connection's channel is made here, never by the slot.
    EventLoop slotLoop = EmbeddedChannel.builder().ticker(ticker).build().eventLoop();
    ConnectionSlot slot = new ConnectionSlot(new Dialer(new InetSocketAddress("127.0.0.1", 1), options,
        ByteBufAllocator.DEFAULT, null, new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), HostResolver.SYSTEM),
        slotLoop, keepAliveTime, () -> {});
    EmbeddedChannel channel = EmbeddedChannel.builder().ticker(ticker).register(false).build();
    connection = new ClientConnection(channel, "127.0.0.1:1", slot);
    channel.pipeline().addLast(NettyClientHandler.create(connection, options, keepAliveTime));
    channel.register();
    server = new EmbeddedHttp2Peer(channel, ticker, true);
    server.sendSettings();
    server.sendSettingsAck();
    server.frames();
  }

  /** A listener that releases the messages it gets and ignores everything else. */
  static ClientStreamListener releasingListener() {
    return releasingListener(status -> { });
  }

  /** A listener that releases the messages it gets and tells {@code closed} how the stream ended. */
  static ClientStreamListener releasingListener(java.util.function.Consumer<Status> closed) {
    return new ClientStreamListener() {
      @Override
      public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {}

      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        payload.release();
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.accept(status);
      }

      @Override
      public void onUnprocessed(Status status) {
        closed.accept(status);
      }

      @Override
      public void onReady() {}
    };
  }

  /** A connection with the default options and keepalive. */
  static EmbeddedClientConnection withDefaults() throws Exception {
    return new EmbeddedClientConnection(
        ClientTransportOptions.DEFAULTS, new KeepAliveTime(ClientTransportOptions.DEFAULTS.keepAlive().timeNanos()));
  }

  /** Starts a gRPC call of {@code path} as core would, its headers sent at once, and runs the queue. */
  NettyClientStream startCall(String path, ClientStreamListener listener) {
    return startCall(path, listener, GrpcClientFraming.INSTANCE);
  }

  /** Starts a call of {@code path} framed by {@code framing}. */
  NettyClientStream startCall(String path, ClientStreamListener listener, ClientFraming framing) {
    return startCall(path, listener, framing, 0);
  }

  /** Starts a gRPC call of {@code path} with a deadline {@code timeoutNanos} away, announced as grpc-timeout. */
  NettyClientStream startCall(String path, ClientStreamListener listener, ClientFraming framing, long timeoutNanos) {
    Http2Headers headers = new DefaultHttp2Headers().method("POST").scheme("http").path(path).authority("127.0.0.1:1");
    if (timeoutNanos > 0) {
      headers.set(GrpcHeaders.GRPC_TIMEOUT, GrpcTimeout.encode(timeoutNanos));
    }
    return startCall(headers, listener, framing, timeoutNanos);
  }

  /** Starts a call with {@code headers} as its request headers. */
  NettyClientStream startCall(Http2Headers headers, ClientStreamListener listener, ClientFraming framing, long timeoutNanos) {
    NettyClientStream stream = new NettyClientStream(connection, headers, 4 << 20, framing, timeoutNanos);
    stream.start(listener, true);
    server.runPendingTasks();
    return stream;
  }

  @Override
  public void close() {
    server.close();
  }
}
