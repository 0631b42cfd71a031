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
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.testing.FaultProxy;
import io.triplerpc.transport.netty.internal.GrpcHttp2ConnectionHandler;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Over a link whose round trip is 40 ms, a window of 1 MiB holds a connection to 25 MiB/s; the
 * server's windows grow as a client uploads through it, real sockets both sides of a delaying proxy.
 */
class WindowGrowthOverSlowLinkTest {

  private static final int MIB = 1 << 20;
  private static final int MESSAGES = 32;

  private final CompletableFuture<NettyServerStream> upload = new CompletableFuture<>();
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

  /** Counts what a call receives and answers OK, with no message, when the client is done. */
  private final ServerTransportListener listener = (stream, request) -> {
    stream.request(Integer.MAX_VALUE);
    upload.complete((NettyServerStream) stream);
    return new ServerStreamListener() {
      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        received.addAndGet(payload.readableBytes());
        payload.release();
      }

      @Override
      public void onHalfClose() {
        ServerStream s = stream;
        s.writeHeaders(new Metadata(), null, false);
        s.close(Status.OK, new Metadata());
      }

      @Override
      public void onCancel(Status status) {}

      @Override
      public void onComplete() {}

      @Override
      public void onReady() {}
    };
  };

  /** Uploads 32 MiB through a proxy adding 20 ms each way; the server's window for new streams, after. */
  private int serverWindowAfterUpload(ServerTransportOptions options) throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), options, listener);
    proxy = FaultProxy.start(transport.localAddress()).delay(Duration.ofMillis(20));
    client = TripleClient.builder().address("127.0.0.1", proxy.port()).build();
    MethodDescriptor<EchoRequest, EchoResponse> method = MethodDescriptor.of("test.Bulk", "Upload",
        MethodType.BIDI_STREAMING, Serializations.codecFor(EchoRequest.class),
        Serializations.codecFor(EchoResponse.class), false);
    CompletableFuture<Status> closed = new CompletableFuture<>();
    ClientCall<EchoRequest, EchoResponse> call = client.newCall(method, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60)));
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.complete(status);
      }
    }, new Metadata());
    EchoRequest chunk = EchoRequest.newBuilder().setMessage("x".repeat(MIB)).build();
    for (int i = 0; i < MESSAGES; i++) {
      call.sendMessage(chunk);
    }
    call.halfClose();
    assertEquals(Status.Code.OK, closed.get(60, TimeUnit.SECONDS).code());
    assertEquals((long) MESSAGES * chunk.getSerializedSize(), received.get());
    NettyServerStream stream = upload.get();
    GrpcHttp2ConnectionHandler handler = stream.channel().pipeline().get(GrpcHttp2ConnectionHandler.class);
    return stream.channel().eventLoop().submit(handler::inboundWindow).get(10, TimeUnit.SECONDS);
  }

  @Test
  void anUploadOverASlowLinkGrowsTheServersWindows() throws Exception {
    int window = serverWindowAfterUpload(ServerTransportOptions.DEFAULTS);
    assertTrue(window > MIB, "the windows stayed at " + window + " bytes");
  }
}
