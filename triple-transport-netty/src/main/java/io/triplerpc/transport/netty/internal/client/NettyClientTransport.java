package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.StatusException;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.FailedClientStream;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** The client transport to one address over HTTP/2: N lazily opened connections, used round robin. */
public final class NettyClientTransport extends AbstractClientTransport {

  private final ConnectionSlot[] slots;
  private final AtomicInteger nextSlot = new AtomicInteger();

  NettyClientTransport(Dialer dialer, EventLoopGroup group, KeepAliveTime keepAliveTime) {
    super(dialer, group.next());
    this.slots = new ConnectionSlot[options.connectionsPerAddress()];
    for (int i = 0; i < slots.length; i++) {
      // The first connection's loop runs the calls' timers: most often the one connection's.
      slots[i] = new ConnectionSlot(dialer, i == 0 ? scheduler() : group.next(), keepAliveTime,
          connectionListeners::changed);
    }
  }

  @Override
  public ClientStream newStream(
      MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
    ConnectionSlot slot = slots.length == 1 ? slots[0] : slots[Math.floorMod(nextSlot.getAndIncrement(), slots.length)];
    ClientConnection connection;
    try {
      connection = slot.connection();
    } catch (StatusException e) {
      return new FailedClientStream(e.status());
    }
    ClientFraming framing = framing(method, requestEncoding);
    return new NettyClientStream(connection, requestHeaders(method, framing, headers, timeoutNanos, requestEncoding),
        maxInboundMessageSize(), framing, timeoutNanos);
  }

  /**
   * The request headers of a gRPC call to {@code path} (uncompressed, {@code timeoutNanos} 0 for no
   * deadline) as a transport to {@code scheme://authority} sends them; public for the header benchmark.
   */
  public static Http2Headers grpcRequestHeaders(
      AsciiString scheme, AsciiString authority, CharSequence path, Metadata metadata, long timeoutNanos) {
    return requestHeaders(scheme, authority, path, GrpcClientFraming.INSTANCE, metadata, timeoutNanos, null);
  }

  @Override
  void forEachConnection(Consumer<AbstractClientConnection> action) {
    for (ConnectionSlot slot : slots) {
      ClientConnection c = slot.currentConnection();
      if (c != null) {
        action.accept(c);
      }
    }
  }

  @Override
  public void shutdown() {
    for (ConnectionSlot slot : slots) {
      slot.shutdown();
    }
  }
}
