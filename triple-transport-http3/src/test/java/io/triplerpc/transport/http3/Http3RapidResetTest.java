package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.triplerpc.TripleServer;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rapid reset over HTTP/3: a client that resets every request stream as soon as its call has started
 * loses the connection once it has opened 500 (H3_EXCESSIVE_LOAD), as on HTTP/2; one that cancels some of its
 * calls keeps it.
 */
class Http3RapidResetTest {

  private final EchoImpl echo = new EchoImpl();
  private TripleServer server;
  private InetSocketAddress address;
  private EventLoopGroup group;
  private QuicChannel connection;

  @BeforeEach
  void start() throws Exception {
    server = Http3Peers.server().addService(Echo.class, echo).build().start();
    address = new InetSocketAddress("127.0.0.1", server.port());
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    connection = Http3TestClient.rawConnection(group, address, 1 << 20, 64 << 10);
  }

  @AfterEach
  void stop() throws Exception {
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
    Http3Peers.stop(server);
  }

  @Test
  void resettingEveryCallAsItStartsCostsTheConnection() throws Exception {
    int opened = 0;
    int reset = 0;
    while (connection.isActive() && opened < 600) {
      // Fifty calls at a time, each reset once its call has started.
      java.util.List<Started> batch = new java.util.ArrayList<>();
      for (int i = 0; i < 50; i++) {
        Started started = open();
        if (started == null) {
          break;
        }
        batch.add(started);
        opened++;
      }
      for (Started started : batch) {
        if (!started.running()) {
          break;
        }
        started.stream().shutdown(Http3ErrorCode.H3_REQUEST_CANCELLED.code());
        reset++;
      }
      if (batch.size() < 50) {
        break;
      }
    }
    String seen = reset + " resets of " + opened + " streams";
    assertTrue(connection.closeFuture().await(20, TimeUnit.SECONDS), "the connection closed after " + seen);
    // Judged from the 500th stream on: then more than half of the streams were reset, and it closes.
    assertTrue(opened >= 500 && opened <= 550 && reset * 2 > 500, seen);
    try (Http3TestClient client = Http3TestClient.connect(address)) {
      assertEquals("0", Http3TestClient.await(client.send(Http3TestClient.post("/triple.http3.Echo/Unary",
          "application/grpc"), Http3TestClient.grpcFrame(StringValue.of("next").toByteArray()))).trailers()
          .get("grpc-status").toString(), "another client is served");
    }
  }

  @Test
  void cancellingSomeCallsKeepsTheConnection() throws Exception {
    for (int i = 0; i < 20; i++) {
      Started started = open();
      assertNotNull(started);
      assertTrue(started.running());
      started.stream().shutdown(Http3ErrorCode.H3_REQUEST_CANCELLED.code());
    }
    QuicStreamChannel unary = Http3.newRequestStream(connection,
        Http3Peers.discarding(true, true, new java.util.concurrent.CompletableFuture<>())).get(10, TimeUnit.SECONDS);
    unary.write(new DefaultHttp3HeadersFrame(Http3TestClient.post("/triple.http3.Echo/Unary", "application/grpc")));
    unary.writeAndFlush(new DefaultHttp3DataFrame(Http3TestClient.grpcFrame(StringValue.of("x").toByteArray())))
        .addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
    assertTrue(unary.closeFuture().await(20, TimeUnit.SECONDS), "the call after 20 cancelled ones was answered");
    assertTrue(connection.isActive(), "twenty cancels in a row keep the connection");
  }

  /** A bidi call on a request stream, and the service's answer to its first message. */
  private record Started(QuicStreamChannel stream, java.util.concurrent.CompletableFuture<Void> answered) {

    /** Whether the service answered, so the server works on the call when the client resets it. */
    boolean running() throws InterruptedException {
      try {
        answered.get(10, TimeUnit.SECONDS);
        return true;
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        return false;
      }
    }
  }

  /** Starts a bidi call on a new request stream; null if the connection went. */
  private Started open() throws Exception {
    java.util.concurrent.CompletableFuture<Void> answered = new java.util.concurrent.CompletableFuture<>();
    io.netty.util.concurrent.Future<QuicStreamChannel> opening = Http3.newRequestStream(connection,
        Http3Peers.discarding(true, false, answered));
    if (!opening.await(10, TimeUnit.SECONDS) || !opening.isSuccess()) {
      return null;
    }
    QuicStreamChannel stream = opening.getNow();
    stream.write(new DefaultHttp3HeadersFrame(Http3TestClient.post("/triple.http3.Echo/Bidi", "application/grpc")));
    stream.writeAndFlush(new DefaultHttp3DataFrame(Http3TestClient.grpcFrame(StringValue.of("hi").toByteArray())));
    return new Started(stream, answered);
  }
}
