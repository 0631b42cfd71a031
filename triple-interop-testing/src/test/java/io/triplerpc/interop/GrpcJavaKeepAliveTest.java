package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.Messages.ResponseParameters;
import io.grpc.testing.integration.Messages.StreamingOutputCallRequest;
import io.grpc.testing.integration.Messages.StreamingOutputCallResponse;
import io.grpc.testing.integration.TestService;
import io.grpc.testing.integration.TestServiceGrpc;
import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 keepalive between Triple and grpc-java, both ways: pings at the rate the server permits keep a
 * connection, pings more frequent get GOAWAY ENHANCE_YOUR_CALM "too_many_pings", and the client on the
 * other side understands it (Triple's fails the calls with RESOURCE_EXHAUSTED and why; grpc-java's logs
 * the debug data and doubles its keepalive time).
 */
class GrpcJavaKeepAliveTest {

  /** grpc-java's client logs the GOAWAY it takes as a sign to ping less here. */
  private static final Logger GRPC_CLIENT_LOG = Logger.getLogger("io.grpc.netty.NettyClientHandler");

  private final ScheduledExecutorService grpcExecutor = Executors.newSingleThreadScheduledExecutor();
  private final List<String> grpcClientWarnings = Collections.synchronizedList(new ArrayList<>());
  private final Handler grpcLogCapture = new Handler() {
    @Override
    public void publish(LogRecord record) {
      Object[] parameters = record.getParameters();
      grpcClientWarnings.add(record.getMessage() + (parameters == null ? "" : " " + List.of(parameters)));
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };
  private Server grpcServer;
  private ManagedChannel channel;
  private TripleServer tripleServer;
  private TripleClient tripleClient;

  @BeforeEach
  void captureGrpcLog() {
    GRPC_CLIENT_LOG.addHandler(grpcLogCapture);
  }

  @AfterEach
  void stop() throws Exception {
    GRPC_CLIENT_LOG.removeHandler(grpcLogCapture);
    if (channel != null) {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    if (tripleClient != null) {
      tripleClient.close();
    }
    if (tripleServer != null) {
      tripleServer.shutdownNow();
      tripleServer.awaitTermination(Duration.ofSeconds(10));
    }
    if (grpcServer != null) {
      grpcServer.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    grpcExecutor.shutdownNow();
  }

  /** Three responses, each after {@code intervalMillis} of silence. */
  private static StreamingOutputCallRequest slowResponses(int intervalMillis) {
    StreamingOutputCallRequest.Builder request = StreamingOutputCallRequest.newBuilder();
    for (int i = 0; i < 3; i++) {
      request.addResponseParameters(ResponseParameters.newBuilder().setSize(10).setIntervalUs(intervalMillis * 1000));
    }
    return request.build();
  }

  /** grpc-java's server with the given permit, counting the connections it accepts. */
  private AtomicInteger startGrpcServer(Duration permitKeepAliveTime, boolean permitWithoutCalls) throws Exception {
    AtomicInteger connections = new AtomicInteger();
    grpcServer = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .permitKeepAliveTime(permitKeepAliveTime.toMillis(), TimeUnit.MILLISECONDS)
        .permitKeepAliveWithoutCalls(permitWithoutCalls)
        .addService(new io.grpc.testing.integration.TestServiceImpl(grpcExecutor))
        .addTransportFilter(new ServerTransportFilter() {
          @Override
          public io.grpc.Attributes transportReady(io.grpc.Attributes attributes) {
            connections.incrementAndGet();
            return attributes;
          }
        })
        .build().start();
    return connections;
  }

  private TestService tripleClientOf(int port, TripleClient.Builder builder) {
    tripleClient = builder.address("127.0.0.1", port).build();
    return tripleClient.proxy(TestService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(20)));
  }

  /**
   * grpc-java raises keepalive times below 10 s to 10 s; its tests of keepalive set the time under the
   * floor the same way, on the builder's field.
   */
  private static void keepAliveTimeBelowGrpcJavasFloor(NettyChannelBuilder builder, Duration time) throws Exception {
    Field field = NettyChannelBuilder.class.getDeclaredField("keepAliveTimeNanos");
    field.setAccessible(true);
    field.setLong(builder, time.toNanos());
  }

  /** A stream observer that completes {@code done} with the call's outcome (null for OK). */
  private static <T> StreamObserver<T> outcome(CompletableFuture<Throwable> done, List<T> received) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        received.add(value);
      }

      @Override
      public void onError(Throwable t) {
        done.complete(t);
      }

      @Override
      public void onCompleted() {
        done.complete(null);
      }
    };
  }

  @Test
  void triplesClientPingingAtTheRateGrpcJavaPermitsKeepsItsConnection() throws Exception {
    AtomicInteger connections = startGrpcServer(Duration.ofMillis(50), true);
    TestService service = tripleClientOf(grpcServer.getPort(), TripleClient.builder()
        .keepAliveTime(Duration.ofMillis(100)).keepAliveWithoutCalls(true));
    CompletableFuture<Throwable> done = new CompletableFuture<>();
    List<StreamingOutputCallResponse> received = Collections.synchronizedList(new ArrayList<>());
    // 400 ms of silence before each response: the client pings three or four times in each.
    service.streamingOutputCall(slowResponses(400), outcome(done, received));
    assertEquals(null, done.get(20, TimeUnit.SECONDS));
    assertEquals(3, received.size());
    assertEquals(Empty.getDefaultInstance(), service.emptyCall(Empty.getDefaultInstance()));
    assertEquals(1, connections.get(), "one connection throughout: no GOAWAY");
  }

  @Test
  void grpcJavaSaysTooManyPingsAndTriplesClientReportsIt() throws Exception {
    AtomicInteger connections = startGrpcServer(Duration.ofMinutes(5), false);
    TestService service = tripleClientOf(grpcServer.getPort(), TripleClient.builder()
        .keepAliveTime(Duration.ofMillis(50)));
    CompletableFuture<Throwable> done = new CompletableFuture<>();
    // A call that waits for the client, which says nothing: only pings cross the connection.
    StreamObserver<StreamingOutputCallRequest> requests =
        service.fullDuplexCall(outcome(done, Collections.synchronizedList(new ArrayList<>())));
    Throwable failure = done.get(20, TimeUnit.SECONDS);
    Status status = ((StatusException) failure).status();
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, status.code(), status.toString());
    assertTrue(status.description().contains("ENHANCE_YOUR_CALM") && status.description().contains("too_many_pings"),
        status.toString());
    requests.onCompleted();
    assertEquals(Empty.getDefaultInstance(), service.emptyCall(Empty.getDefaultInstance()),
        "the next call goes to a new connection");
    assertEquals(2, connections.get());
  }

  private void startTripleServer(TripleServer.Builder builder) {
    tripleServer = builder.host("127.0.0.1").port(0).addService(TestService.class, new TestServiceImpl()).build().start();
  }

  @Test
  void grpcJavasClientPingingAtTheRateTriplePermitsKeepsItsConnection() throws Exception {
    startTripleServer(TripleServer.builder()
        .permitKeepAliveTime(Duration.ofMillis(50)).permitKeepAliveWithoutCalls(true));
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", tripleServer.port()).usePlaintext()
        .keepAliveWithoutCalls(true);
    keepAliveTimeBelowGrpcJavasFloor(builder, Duration.ofMillis(100));
    channel = builder.build();
    TestServiceGrpc.TestServiceBlockingStub stub =
        TestServiceGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS);
    List<StreamingOutputCallResponse> received = new ArrayList<>();
    stub.streamingOutputCall(slowResponses(400)).forEachRemaining(received::add);
    assertEquals(3, received.size());
    assertEquals(ConnectivityState.READY, channel.getState(false));
    assertTrue(grpcClientWarnings.stream().noneMatch(w -> w.contains("ENHANCE_YOUR_CALM")), grpcClientWarnings::toString);
  }

  @Test
  void triplesServerSaysTooManyPingsAndGrpcJavasClientUnderstands() throws Exception {
    startTripleServer(TripleServer.builder());
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", tripleServer.port()).usePlaintext();
    keepAliveTimeBelowGrpcJavasFloor(builder, Duration.ofMillis(50));
    channel = builder.build();
    CompletableFuture<Throwable> done = new CompletableFuture<>();
    io.grpc.stub.StreamObserver<StreamingOutputCallRequest> requests = TestServiceGrpc.newStub(channel)
        .withDeadlineAfter(20, TimeUnit.SECONDS)
        .fullDuplexCall(new io.grpc.stub.StreamObserver<>() {
          @Override
          public void onNext(StreamingOutputCallResponse value) {
          }

          @Override
          public void onError(Throwable t) {
            done.complete(t);
          }

          @Override
          public void onCompleted() {
            done.complete(null);
          }
        });
    io.grpc.Status status = io.grpc.Status.fromThrowable(done.get(20, TimeUnit.SECONDS));
    assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, status.getCode(), status.toString());
    assertTrue(status.getDescription().contains("too_many_pings"), status.toString());
    assertTrue(grpcClientWarnings.stream().anyMatch(w -> w.contains("ENHANCE_YOUR_CALM") && w.contains("too_many_pings")),
        () -> "grpc-java's client saw the GOAWAY it backs off from: " + grpcClientWarnings);
    requests.onCompleted();
  }
}
