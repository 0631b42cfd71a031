package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.StringValue;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client that never reads its responses, over HTTP/3: its flow-control windows stay shut, so what the server
 * writes waits in the server's queues. The server holds at most its {@code maxPendingOutboundBytes} of it per
 * connection: past it, the call being written ends with RESOURCE_EXHAUSTED and its stream is reset; past it
 * again after the client's connection window is spent, the connection closes. Other clients are served on.
 */
class Http3BacklogTest {

  private static final int LIMIT = 1 << 20;
  private static final int MESSAGE = 128 << 10;

  /** Writes {@code n} messages of 128 KiB at once, whether or not the call is ready. */
  @TripleService(name = "triple.http3.Flood")
  public interface Flood {
    @TripleMethod(name = "Flood")
    void flood(StringValue count, StreamObserver<BytesValue> responses);
  }

  private final BlockingQueue<CompletableFuture<Status>> ends = new LinkedBlockingQueue<>();
  private TripleServer server;
  private EventLoopGroup group;

  @AfterEach
  void stop() throws Exception {
    if (group != null) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
    }
    Http3Peers.stop(server);
  }

  @Test
  void aClientThatNeverReadsLosesItsCallsThenItsConnectionAndOthersAreServedOn() throws Exception {
    BytesValue payload = BytesValue.of(ByteString.copyFrom(new byte[MESSAGE]));
    server = Http3Peers.server()
        .maxPendingOutboundBytes(LIMIT)
        .addService(Flood.class, (Flood) (count, responses) -> {
          CompletableFuture<Status> end = new CompletableFuture<>();
          ServerContext.current().addEndListener(end::complete);
          ends.add(end);
          for (int i = Integer.parseInt(count.getValue()); i > 0; i--) {
            responses.onNext(payload);
          }
          responses.onCompleted();
        })
        .addService(Echo.class, new EchoImpl())
        .build()
        .start();
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
    // Windows smaller than one message, never opened further: no message is ever taken whole.
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    QuicChannel stalled = Http3TestClient.rawConnection(group, address, 16 << 10, 8 << 10);

    // 2 MiB for a call whose client takes none of it: past the 1 MiB limit, the call ends and its stream is reset.
    floodWithoutReading(stalled);
    Status first = ends.take().get(20, TimeUnit.SECONDS);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, first.code(), () -> describe(first));
    assertTrue(first.description().startsWith("The client did not read this call's response"), () -> describe(first));
    assertTrue(stalled.isActive(), "one reset: the connection stays");

    // Past the limit again, the client having taken nothing since the reset: it reads nothing, and goes.
    floodWithoutReading(stalled);
    Status second = ends.take().get(20, TimeUnit.SECONDS);
    assertTrue(stalled.closeFuture().await(20, TimeUnit.SECONDS), () -> "the connection closed; " + describe(second));

    // Another client is served as ever.
    try (Http3TestClient reader = Http3TestClient.connect(address)) {
      Http3TestClient.Response echoed = Http3TestClient.await(reader.send(
          Http3TestClient.post("/triple.http3.Echo/Unary", "application/grpc"),
          Http3TestClient.grpcFrame(StringValue.of("still here").toByteArray())));
      assertEquals("0", echoed.trailers().get("grpc-status").toString());
    }
  }

  /**
   * The server-wide limit ({@code maxTotalPendingOutboundBytes}) counts HTTP/3 connections with the TCP ones: with
   * a connection limit the flood stays under, the server's smaller limit closes the connection holding the most.
   */
  @Test
  void theServerWideLimitCountsHttp3Connections() throws Exception {
    BytesValue payload = BytesValue.of(ByteString.copyFrom(new byte[MESSAGE]));
    server = Http3Peers.server()
        .maxPendingOutboundBytes(4 * LIMIT)
        .maxTotalPendingOutboundBytes(LIMIT)
        .addService(Flood.class, (Flood) (count, responses) -> {
          for (int i = Integer.parseInt(count.getValue()); i > 0; i--) {
            responses.onNext(payload);
          }
          responses.onCompleted();
        })
        .addService(Echo.class, new EchoImpl())
        .build()
        .start();
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    QuicChannel stalled = Http3TestClient.rawConnection(group, address, 16 << 10, 8 << 10);

    // 2 MiB waiting: under the connection's 4 MiB, over the server's 1 MiB.
    floodWithoutReading(stalled);
    assertTrue(stalled.closeFuture().await(20, TimeUnit.SECONDS), "the connection holding the most closed");

    try (Http3TestClient reader = Http3TestClient.connect(address)) {
      Http3TestClient.Response echoed = Http3TestClient.await(reader.send(
          Http3TestClient.post("/triple.http3.Echo/Unary", "application/grpc"),
          Http3TestClient.grpcFrame(StringValue.of("still here").toByteArray())));
      assertEquals("0", echoed.trailers().get("grpc-status").toString());
    }
  }

  private static String describe(Status status) {
    return status.code() + ": " + status.description();
  }

  /** A gRPC call of Flood for 16 messages (2 MiB) on a stream that reads nothing. */
  private static void floodWithoutReading(QuicChannel connection) throws Exception {
    QuicStreamChannel stream = Http3.newRequestStream(connection,
        Http3Peers.discarding(false, false, new CompletableFuture<>())).get(10, TimeUnit.SECONDS);
    stream.write(new DefaultHttp3HeadersFrame(Http3TestClient.post("/triple.http3.Flood/Flood", "application/grpc")));
    stream.writeAndFlush(new DefaultHttp3DataFrame(Http3TestClient.grpcFrame(StringValue.of("16").toByteArray())))
        .addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
  }
}
