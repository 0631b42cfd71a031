package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.TripleClient;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.testing.FaultProxy;
import io.triplerpc.transport.netty.internal.GrpcHttp2ConnectionHandler;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Over a link whose round trip is 40 ms, a window of 1 MiB holds a connection to 25 MiB/s; the
 * server's windows grow as a client uploads through it, and the client's as it downloads, real sockets
 * both sides of a delaying proxy.
 */
class WindowGrowthOverSlowLinkTest {

  private static final int MIB = 1 << 20;
  private static final int MESSAGES = 32;

  private final CompletableFuture<NettyServerStream> serverCall = new CompletableFuture<>();
  private final AtomicLong received = new AtomicLong();
  private NettyServerTransport transport;
  private FaultProxy proxy;
  private TripleClient client;

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (proxy != null) {
      proxy.close();
    }
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  /** The framed response each download sends {@link #MESSAGES} times; null for uploads. */
  private byte[] download;

  /**
   * Counts what a call receives; when the client is done, sends the {@link #download} as fast as the
   * stream takes it, if there is one, and answers OK. Runs on the connection's event loop.
   */
  private final ServerTransportListener listener = (stream, request) -> {
    stream.request(Integer.MAX_VALUE);
    serverCall.complete((NettyServerStream) stream);
    return new ServerStreamListener() {
      private int sent = -1;

      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        received.addAndGet(payload.readableBytes());
        payload.release();
      }

      @Override
      public void onHalfClose() {
        stream.writeHeaders(new Metadata(), null, false);
        sent = 0;
        send();
      }

      private void send() {
        while (download != null && sent >= 0 && sent < MESSAGES && stream.isReady()) {
          stream.writeMessage(stream.alloc().buffer(download.length).writeBytes(download), true);
          sent++;
        }
        if (sent == (download == null ? 0 : MESSAGES)) {
          sent = -1;
          stream.close(Status.OK, new Metadata());
        }
      }

      @Override
      public void onCancel(Status status) {}

      @Override
      public void onComplete() {}

      @Override
      public void onReady() {
        send();
      }
    };
  };

  private static final MethodDescriptor<EchoRequest, EchoResponse> BULK = MethodDescriptor.of("test.Bulk", "Upload",
      MethodType.BIDI_STREAMING, Serializations.codecFor(EchoRequest.class),
      Serializations.codecFor(EchoResponse.class), false);

  /** Calls {@link #BULK} through a proxy adding 20 ms each way, sending {@code requests}; the messages received. */
  private long call(ServerTransportOptions options, int requests) throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), options, listener);
    proxy = FaultProxy.start(transport.localAddress()).delay(Duration.ofMillis(20));
    client = TripleClient.builder().address("127.0.0.1", proxy.port()).build();
    CompletableFuture<Status> closed = new CompletableFuture<>();
    AtomicLong responses = new AtomicLong();
    ClientCall<EchoRequest, EchoResponse> call = client.newCall(BULK, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60)));
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onMessage(EchoResponse message) {
        responses.incrementAndGet();
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.complete(status);
      }
    }, new Metadata());
    call.request(Integer.MAX_VALUE);
    EchoRequest chunk = EchoRequest.newBuilder().setMessage("x".repeat(MIB)).build();
    for (int i = 0; i < requests; i++) {
      call.sendMessage(chunk);
    }
    call.halfClose();
    assertEquals(Status.Code.OK, closed.get(60, TimeUnit.SECONDS).code());
    assertEquals((long) requests * chunk.getSerializedSize(), received.get());
    return responses.get();
  }

  /** {@code read} of the server connection's handler, on its event loop. */
  private int onServerConnection(ToIntFunction<GrpcHttp2ConnectionHandler> read) throws Exception {
    NettyServerStream stream = serverCall.get();
    GrpcHttp2ConnectionHandler handler = stream.channel().pipeline().get(GrpcHttp2ConnectionHandler.class);
    return stream.channel().eventLoop().submit(() -> read.applyAsInt(handler)).get(10, TimeUnit.SECONDS);
  }

  @Test
  void anUploadOverASlowLinkGrowsTheServersWindows() throws Exception {
    assertEquals(0, call(ServerTransportOptions.DEFAULTS, MESSAGES));
    int window = onServerConnection(GrpcHttp2ConnectionHandler::inboundWindow);
    assertTrue(window > MIB, "the windows stayed at " + window + " bytes");
  }

  @Test
  void aDownloadOverASlowLinkGrowsTheClientsWindows() throws Exception {
    byte[] message = EchoResponse.newBuilder().setMessage("x".repeat(MIB)).build().toByteArray();
    download = ByteBuffer.allocate(5 + message.length).put((byte) 0).putInt(message.length).put(message).array();
    assertEquals(MESSAGES, call(ServerTransportOptions.DEFAULTS, 1));
    // The client's windows, as its SETTINGS told the server.
    int window = onServerConnection(handler -> handler.connection().remote().flowController().initialWindowSize());
    assertTrue(window > MIB, "the windows stayed at " + window + " bytes");
  }
}
